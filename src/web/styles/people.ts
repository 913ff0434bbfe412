// People: a profile's head (picture beside the name), its bio, the moderators' section, the form's
// picture; a post's byline; and the user card that opens from an author's name beside a post (a <details>: its
// summary reads as the name, its card floats below it).
export const PEOPLE_CSS = `
.profile-head{display:flex;align-items:center;gap:1rem}.profile-head h1{margin:0}.profile-head p{margin:.2rem 0}
.profile-head .avatar{width:4rem;height:4rem;font-size:1.4rem;flex:none}
img.avatar.photo{object-fit:cover;border-radius:50%;display:inline-block}
.bio{border-left:3px solid var(--border);padding-left:.8rem;margin:1rem 0}
.profile-moderation{border:1px solid var(--border);border-radius:8px;padding:.2rem 1rem .8rem;margin:1rem 0}
.profile-picture{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}.profile-picture label,.profile-picture .hint{flex-basis:100%;margin:0}
.profile-picture input[type=file]{color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:4px;padding:.25rem}
/* A post's byline: its links are underlined, told from the muted text by more than colour. */
.byline a{text-decoration:underline;text-underline-offset:2px}
.byline .reputation{font-size:.8rem;color:var(--muted);white-space:nowrap}.byline .reputation abbr{text-decoration:none}
details.user-card{display:inline-block;position:relative}
details.user-card>summary{display:inline;list-style:none;cursor:pointer;color:var(--link);padding:.15rem 0}
details.user-card>summary::-webkit-details-marker{display:none}
details.user-card>summary:hover{text-decoration:underline}
.user-card-body{position:absolute;z-index:5;left:0;top:1.6rem;display:flex;gap:.6rem;align-items:flex-start;min-width:14rem;max-width:min(20rem,80vw);background:var(--bg);color:var(--text);border:1px solid var(--border-strong);border-radius:8px;padding:.6rem .8rem;box-shadow:0 4px 12px rgba(0,0,0,.15);font-size:.875rem;line-height:1.5}
.user-card-body a{display:inline-block;padding:.1rem 0}
`;
