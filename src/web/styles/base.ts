// The stylesheet's base: colours (custom properties for the light and the dark scheme, chosen by
// prefers-color-scheme), type scale, layout, forms, tables, notices and posts for every page. Other
// files in this folder add their area's rules; assets.ts serves them together as hamlet.css.
// Every colour below is a variable; each pair of text and background meets WCAG AA in both schemes.
const COLOURS = `:root{color-scheme:light dark;
--text:#1f2328;--muted:#565e68;--bg:#fff;--surface:#f6f8fa;--border:#d0d7de;--border-strong:#6e7781;
--link:#0a58c2;--link-hover:#06357a;--accent:#0a58c2;--accent-hover:#084598;--on-accent:#fff;
--danger:#a4161a;--danger-bg:#fdeeee;--ok:#1a6b26;--ok-bg:#eef7ee;--warning:#8a4b00;--warning-bg:#fff8e0;
--agent:#5b2a86;--mark:#fff1a8;--code-bg:#f3f4f6;--focus:#b35c00;--unread:#b3261e;--shadow:0 1px 2px rgba(31,35,40,.06)}
@media (prefers-color-scheme:dark){:root{
--text:#e6edf3;--muted:#a0aab5;--bg:#0d1117;--surface:#161b22;--border:#30363d;--border-strong:#8b949e;
--link:#6cb6ff;--link-hover:#9ccfff;--accent:#1b5fcf;--accent-hover:#2a6fe0;--on-accent:#fff;
--danger:#ff8a80;--danger-bg:#2d1416;--ok:#6fdd8b;--ok-bg:#10241a;--warning:#e3b341;--warning-bg:#2a2110;
--agent:#d2a8ff;--mark:#3d3200;--code-bg:#1c2128;--focus:#f0883e;--unread:#c62828;--shadow:none}}`;

export const BASE_CSS = `${COLOURS}
*{box-sizing:border-box}
html{background:var(--bg)}
body{font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:54rem;margin:0 auto;padding:0 1rem 2rem;color:var(--text);background:var(--bg)}
a{color:var(--link);text-decoration:none}a:hover{color:var(--link-hover);text-decoration:underline}
main p a,footer a,.post-body a,.notice a,.hint a,.field-error a{text-decoration:underline;text-decoration-thickness:1px;text-underline-offset:.15em}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}.skip:focus{left:1rem;z-index:20}
header{position:sticky;top:0;z-index:10;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;background:var(--bg);border-bottom:1px solid var(--border);padding:.7rem 0;margin-bottom:1.25rem}
header .site{margin:0;font-weight:700;font-size:1.15rem;letter-spacing:-.01em}header .site a{color:var(--text)}
nav ul{list-style:none;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1.1rem;margin:0;padding:0;font-size:.95rem}
nav a{color:var(--text)}nav a:hover{color:var(--link)}
form.inline{display:inline}
button,.button{font:inherit;font-size:.95rem;line-height:1.4;font-weight:600;padding:.4rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none;display:inline-block;box-shadow:var(--shadow)}
button:hover,.button:hover{background:var(--accent-hover);border-color:var(--accent-hover);color:var(--on-accent);text-decoration:none}
button.secondary,.button.secondary{background:var(--surface);border-color:var(--border);color:var(--text)}
button.secondary:hover,.button.secondary:hover{background:var(--bg);border-color:var(--border-strong);color:var(--text)}
button.danger{background:var(--bg);border-color:var(--danger);color:var(--danger)}button.danger:hover{background:var(--danger-bg);color:var(--danger)}
button.link{background:none;border:none;box-shadow:none;color:var(--text);padding:0;font-weight:400;font-size:inherit}button.link:hover{background:none;color:var(--link);text-decoration:underline}
h1,h2,h3{line-height:1.25;letter-spacing:-.01em;overflow-wrap:anywhere}h1{font-size:1.75rem;margin:.5rem 0 1rem}h2{font-size:1.3rem;margin:2rem 0 .75rem}h3{font-size:1.1rem}
h1 a,h2 a,h3 a{color:var(--text)}
article{border:1px solid var(--border);border-radius:8px;padding:.9rem 1.1rem;margin:1rem 0;background:var(--bg);box-shadow:var(--shadow)}
article>.meta:first-child,article>p:first-child{margin-top:0}
article.solution{background:var(--ok-bg);border-color:var(--ok);border-left-width:4px}
.meta{color:var(--muted);font-size:.875rem}
time{white-space:nowrap}
.badge{white-space:nowrap;font-size:.78rem;font-weight:600;border:1px solid currentColor;border-radius:1rem;padding:0 .45rem;color:var(--ok)}
.badge.agent{color:var(--agent)}.badge.pending{color:var(--warning)}
.bell{color:var(--text)}.bell .icon{vertical-align:-.15em}.bell:hover{text-decoration:none}.bell .count{font-size:.8rem;margin-left:.15rem}.bell.unread .count{background:var(--unread);color:#fff;border-radius:1rem;padding:0 .4rem}
.notifications li.unread{font-weight:600}.watch-level{margin:.5rem 0}.watch-level select{max-width:100%}a.mention{font-weight:600}
ul.topics,ol.topics{list-style:none;padding:0;border:1px solid var(--border);border-radius:8px;overflow:hidden}
.topics li{padding:.7rem 1rem;border-top:1px solid var(--border)}.topics li:first-child{border-top:0}.topics li:hover{background:var(--surface)}
.topics li>a:first-child{font-weight:600;color:var(--text)}.topics li>a:first-child:hover{color:var(--link)}.snippet{margin:.25rem 0;color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.inline-label{display:inline;font-weight:400}
pre{overflow:auto;background:var(--code-bg);border:1px solid var(--border);padding:.7rem .8rem;border-radius:6px;font-size:.9rem}
code{overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}:not(pre)>code{background:var(--code-bg);padding:.1em .3em;border-radius:4px}
.post-body{overflow-wrap:anywhere}.post-body table{display:block;overflow-x:auto}.post-body .raw pre{max-height:30rem}
.post-body blockquote{margin:.75rem 0;padding:0 1rem;border-left:3px solid var(--border);color:var(--muted)}
mark{background:var(--mark);color:inherit}
label{display:block;font-weight:600;margin-top:1rem}
.field input[type=text],.field input[type=email],.field input[type=password],.field input[type=search],.field input[type=number],.field input[type=date],.field textarea,.field select{display:block;width:100%;max-width:40rem;font:inherit;padding:.45rem .6rem;color:var(--text);background:var(--bg);border:1px solid var(--border-strong);border-radius:6px;margin-top:.3rem}
input,select,textarea{color:var(--text);background:var(--bg)}
.field textarea{min-height:10rem}
.hint{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}
.field-error{color:var(--danger);font-weight:600;margin:.25rem 0 0}
[aria-invalid=true]{border-color:var(--danger)!important;border-width:2px!important}
fieldset{border:1px solid var(--border);border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
fieldset label{display:inline;font-weight:400;margin:0 0 0 .25rem}.check{display:inline-block;white-space:nowrap;margin:.2rem 1.25rem .2rem 0}
table.data code{white-space:nowrap;overflow-wrap:normal}
.actions{margin-top:1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.notice{border-radius:8px;padding:.25rem 1rem;margin:1rem 0}.notice.ok{background:var(--ok-bg);border:1px solid var(--ok)}.notice.error{background:var(--danger-bg);border:1px solid var(--danger)}
.secret{font-family:ui-monospace,monospace;background:var(--warning-bg);border:1px dashed var(--warning);padding:.5rem;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto}table.data{border-collapse:collapse;width:100%}table.data th,table.data td{text-align:left;border-bottom:1px solid var(--border);padding:.5rem .6rem;vertical-align:top}table.data th{background:var(--surface);font-size:.9rem}
.queued{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.preview{border-left:4px solid var(--border);padding-left:.75rem}
.avatar{display:inline-flex;align-items:center;justify-content:center;width:2rem;height:2rem;border-radius:50%;color:#fff;font-weight:700;font-size:.8rem;margin-right:.5rem;vertical-align:middle;letter-spacing:.02em}.avatar.agent{border-radius:.4rem}.av-0{background:hsl(210 60% 28%)}.av-1{background:hsl(0 60% 28%)}.av-2{background:hsl(30 60% 28%)}.av-3{background:hsl(120 60% 28%)}.av-4{background:hsl(270 60% 28%)}.av-5{background:hsl(330 60% 28%)}.av-6{background:hsl(180 60% 28%)}.av-7{background:hsl(45 60% 28%)}.av-8{background:hsl(160 60% 28%)}.av-9{background:hsl(240 60% 28%)}.av-10{background:hsl(300 60% 28%)}.av-11{background:hsl(15 60% 28%)}
.toolbar{display:flex;flex-wrap:wrap;gap:.25rem;margin-top:.35rem}.toolbar .tool{padding:.15rem .55rem;font-size:.875rem}.draft-status{min-height:1.2em;margin:.25rem 0 0}.post-tools{margin:.25rem 0 0}
.tabs{display:flex;flex-wrap:wrap;gap:.25rem 1.1rem;list-style:none;padding:0 0 .4rem;border-bottom:1px solid var(--border)}.tabs [aria-current=page]{font-weight:700;color:var(--text)}
footer{margin-top:3rem;border-top:1px solid var(--border)}
@media (max-width:40rem){body{padding:0 .6rem 1.5rem}h1{font-size:1.4rem}header{display:block;position:static}nav ul{margin-top:.5rem}article{padding:.75rem}}`;
