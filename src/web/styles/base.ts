// The stylesheet's base: type, layout, forms, tables, notices and posts for every page. Other
// files in this folder add their area's rules; assets.ts serves them together as hamlet.css.
export const BASE_CSS = `*{box-sizing:border-box}
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:52rem;margin:0 auto;padding:0 1rem 2rem;color:#1b1b1f;background:#fff}
a{color:#0a53be}a:hover{color:#06357a}
:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}.skip:focus{left:1rem;z-index:1}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;border-bottom:1px solid #d0d0d7;padding:.75rem 0;margin-bottom:1rem}
header .site{margin:0;font-weight:700;font-size:1.15rem}header .site a{text-decoration:none;color:#1b1b1f}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
form.inline{display:inline}
button,.button{font:inherit;padding:.45rem .9rem;border-radius:4px;border:1px solid #0a53be;background:#0a53be;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#0a53be}
button.danger{background:#a4161a;border-color:#a4161a}
button.link{background:none;border:none;color:#0a53be;padding:0;text-decoration:underline}
h1{font-size:1.6rem;line-height:1.25;overflow-wrap:anywhere}h2{font-size:1.25rem;margin-top:1.75rem}
article{border-top:1px solid #e4e4ea;padding:.75rem 0}
article.solution{background:#eef7ee;border-left:4px solid #1e6b22;padding:.75rem}
.meta{color:#4a4a55;font-size:.9rem}
time{white-space:nowrap}
.badge{white-space:nowrap;font-size:.8rem;border:1px solid currentColor;border-radius:3px;padding:0 .35rem;color:#1e6b22}
.badge.agent{color:#5b2a86}.badge.pending{color:#8a4b00}
.bell{text-decoration:none}.bell .count{font-size:.8rem;margin-left:.15rem}.bell.unread .count{background:#b3261e;color:#fff;border-radius:1rem;padding:0 .4rem}
.notifications li.unread{font-weight:600}.watch-level{margin:.5rem 0}a.mention{font-weight:600}
ul.topics,ol.topics{list-style:none;padding:0}.topics li{padding:.5rem 0;border-top:1px solid #e4e4ea}.snippet{margin:.25rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.inline-label{display:inline;font-weight:400}
pre{overflow:auto;background:#f4f5f7;padding:.6rem;border-radius:4px}code{overflow-wrap:anywhere}
.post-body{overflow-wrap:anywhere}.post-body table{display:block;overflow-x:auto}.post-body .raw pre{max-height:30rem}
mark{background:#fff1a8;color:inherit}
label{display:block;font-weight:600;margin-top:1rem}
.field input[type=text],.field input[type=email],.field input[type=password],.field input[type=search],.field input[type=number],.field input[type=date],.field textarea,.field select{display:block;width:100%;max-width:40rem;font:inherit;padding:.45rem;border:1px solid #6e6e78;border-radius:4px;margin-top:.25rem}
.field textarea{min-height:10rem}
.hint{color:#4a4a55;font-size:.9rem;margin:.2rem 0 0}
.field-error{color:#a4161a;font-weight:600;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#a4161a!important;border-width:2px!important}
fieldset{border:1px solid #d0d0d7;border-radius:4px;margin:1rem 0;padding:.5rem 1rem}
fieldset label{display:inline;font-weight:400;margin:0 0 0 .25rem}.check{display:inline-block;white-space:nowrap;margin:.2rem 1.25rem .2rem 0}
table.data code{white-space:nowrap;overflow-wrap:normal}
.actions{margin-top:1rem;display:flex;flex-wrap:wrap;gap:.5rem}
.notice{border-radius:4px;padding:.25rem 1rem;margin:1rem 0}.notice.ok{background:#eef7ee;border:1px solid #1e6b22}.notice.error{background:#fdeeee;border:1px solid #a4161a}
.secret{font-family:ui-monospace,monospace;background:#fff8e0;border:1px dashed #8a4b00;padding:.5rem;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto}table.data{border-collapse:collapse;width:100%}table.data th,table.data td{text-align:left;border-bottom:1px solid #e4e4ea;padding:.4rem .5rem;vertical-align:top}
.queued{border:1px solid #d0d0d7;border-radius:4px;padding:.75rem 1rem;margin:1rem 0}
.preview{border-left:4px solid #d0d0d7;padding-left:.75rem}
.avatar{display:inline-flex;align-items:center;justify-content:center;width:2rem;height:2rem;border-radius:50%;color:#fff;font-weight:700;font-size:.8rem;margin-right:.5rem;vertical-align:middle;letter-spacing:.02em}.avatar.agent{border-radius:.4rem}.av-0{background:hsl(210 60% 28%)}.av-1{background:hsl(0 60% 28%)}.av-2{background:hsl(30 60% 28%)}.av-3{background:hsl(120 60% 28%)}.av-4{background:hsl(270 60% 28%)}.av-5{background:hsl(330 60% 28%)}.av-6{background:hsl(180 60% 28%)}.av-7{background:hsl(45 60% 28%)}.av-8{background:hsl(160 60% 28%)}.av-9{background:hsl(240 60% 28%)}.av-10{background:hsl(300 60% 28%)}.av-11{background:hsl(15 60% 28%)}
.toolbar{display:flex;flex-wrap:wrap;gap:.25rem;margin-top:.35rem}.toolbar .tool{padding:.15rem .55rem;font-size:.9rem}.draft-status{min-height:1.2em;margin:.25rem 0 0}.post-tools{margin:.25rem 0 0}
.tabs{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}.tabs [aria-current=page]{font-weight:700;text-decoration:none;color:#1b1b1f}
footer{margin-top:3rem;border-top:1px solid #d0d0d7}
@media (max-width:40rem){body{padding:0 .6rem 1.5rem}h1{font-size:1.35rem}header{display:block}nav ul{margin-top:.5rem}}`;
