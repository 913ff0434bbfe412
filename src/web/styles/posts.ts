// Posts and the page's frame: one light action row per post card (the vote and its number on the
// left; Reply, Quote, bookmark, edit as icons named for screen readers, then accept, flag and the
// moderator's delete on the right, muted until hovered or focused); every tap target in posts,
// lists, the header and the pager at least 24 px square (WCAG 2.5.8); in-page targets (`#post-…`,
// `#reply`) landing below the sticky header; selects in the page's font; a wider page on wide
// screens (lists use the width; a post's text keeps a readable line length); the composer's drop
// target.
export const POSTS_CSS = `
[id]{scroll-margin-top:6rem}
select{font:inherit;font-size:.95rem;color:var(--text);background:var(--bg);border:1px solid var(--border-strong);border-radius:6px;padding:.2rem .4rem;min-height:2rem}
nav a,footer a,.pager a,.tabs a{display:inline-block;min-height:24px;padding:.1rem 0}
details.user-card>summary{display:inline-block;min-height:24px;line-height:24px;padding:0}
article .meta a,.replies a,.topics a,.topics button,.bookmarks a,.notifications a,nav[aria-label=Breadcrumb] a{display:inline-block;min-height:24px;min-width:24px;line-height:24px}
.topics li>a:first-child{line-height:1.4;padding:.15rem 0}
.icon{flex:none;vertical-align:-.2em}
.permalink{color:var(--muted);text-align:center}.permalink:hover{color:var(--link)}
.post-actions{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .5rem;margin-top:.75rem;padding-top:.5rem;border-top:1px solid var(--border)}
.post-actions .votes{display:flex;align-items:center;gap:.25rem;margin:0}
.post-actions .votes .score{min-width:1.5rem;text-align:center;font-weight:600}
.post-actions .tools{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .35rem;margin-left:auto}
.post-actions .tools>*{margin:0}
button.icon-button,a.tool-link{display:inline-flex;align-items:center;justify-content:center;gap:.3rem;min-width:2rem;min-height:2rem;padding:.25rem .45rem;border-radius:6px;font-weight:400;font-size:.875rem;line-height:1.2;color:var(--muted);background:none;border:1px solid transparent;box-shadow:none}
button.icon-button:hover,a.tool-link:hover{color:var(--text);background:var(--surface);border-color:var(--border);text-decoration:none}
button.icon-button[aria-pressed=true]{color:var(--accent);background:none;border-color:var(--accent)}
button.icon-button[aria-pressed=true]:hover{color:var(--accent);background:var(--surface)}
.post-actions button.secondary:not(.icon-button){font-size:.85rem;padding:.2rem .6rem;min-height:2rem}
.post-actions>.tools>a:not(.tool-link){display:inline-flex;align-items:center;min-height:2rem;padding:0 .35rem;font-size:.875rem;color:var(--muted)}
.post-actions details.flag{font-size:.875rem}
.post-actions details.flag>summary{display:inline-flex;align-items:center;min-height:2rem;padding:0 .45rem;color:var(--muted);cursor:pointer;border-radius:6px}
.post-actions details.flag>summary:hover{color:var(--text);background:var(--surface)}
.post-actions details.flag[open]{flex-basis:100%;order:9}
.post-actions .notice{flex-basis:100%}
.replies{margin:.5rem 0 0}
.toolbar .tool,.handle-hints .tool{min-height:1.75rem;min-width:1.75rem}
.composer.dropping textarea{outline:3px dashed var(--accent);outline-offset:2px}
.unconfirmed form{margin:.25rem 0 .75rem}
@media (min-width:75rem){body{max-width:72rem}.post-body,article>.meta,.preview{max-width:48rem}main>p,main>form,main>section{max-width:52rem}}
@media (max-width:40rem){[id]{scroll-margin-top:.5rem}}
`;
