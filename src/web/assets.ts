// The web's static files: the stylesheet and the scripts (similar questions while typing on the ask
// form; the composer's toolbar, autosave and quoting). Served from /assets/ under a content hash, cached for a year; the CSP allows
// scripts and styles from the page's own origin only, so nothing is ever inline.
import { createHash } from 'node:crypto';
import { LIMITS } from '../domain/fields.ts';

const CSS = `*{box-sizing:border-box}
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

// Similar questions while typing the title on /ask: asks /ask/similar (the server's own check, the
// same list the "Check for similar questions" button renders without JavaScript) and shows it.
const ASK_JS = `(function(){
var form=document.querySelector('form[data-similar]');if(!form)return;
var title=form.querySelector('#title'),out=document.getElementById('similar-live');if(!title||!out)return;
var timer,last='';
title.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(check,350);});
function check(){var q=title.value.trim();if(q.length<${LIMITS.title.min}||q===last)return;last=q;
fetch(form.getAttribute('data-similar')+'?title='+encodeURIComponent(q),{headers:{accept:'application/json'},credentials:'same-origin'})
.then(function(r){return r.ok?r.json():null;}).then(function(d){if(d&&q===last)show(d.similar||[]);}).catch(function(){});}
function show(items){out.textContent='';if(!items.length)return;
var h=document.createElement('h2');h.textContent='Similar questions';out.appendChild(h);
var p=document.createElement('p');p.className='hint';p.textContent='One of these may already answer yours.';out.appendChild(p);
var ul=document.createElement('ul');ul.className='topics';
items.forEach(function(i){var li=document.createElement('li');var a=document.createElement('a');a.href=i.href;a.textContent=i.title;li.appendChild(a);
if(i.solved){var b=document.createElement('span');b.className='badge';b.textContent='Solved';li.appendChild(document.createTextNode(' '));li.appendChild(b);}
ul.appendChild(li);});out.appendChild(ul);}
})();`;

// The composer's enhancements (./pages/composer.ts): a formatting toolbar over each Markdown field,
// the draft saved to the server a moment after typing stops, and "Quote" taking the selected text
// of that post (the link's own URL quotes the whole post without JavaScript).
const COMPOSER_JS = `(function(){
function wrap(ta,a,b){var s=ta.selectionStart,e=ta.selectionEnd,v=ta.value;ta.value=v.slice(0,s)+a+v.slice(s,e)+b+v.slice(e);ta.focus();ta.selectionStart=s+a.length;ta.selectionEnd=e+a.length;ta.dispatchEvent(new Event('input'));}
var TOOLS=[['B','Bold','**','**'],['I','Italic','_','_'],['Link','Link','[','](https://)'],['Code','Code','\\x60','\\x60'],['Quote','Quote','> ',''],['List','Bulleted list','- ','']];
Array.prototype.forEach.call(document.querySelectorAll('textarea[data-composer]'),function(ta){
var bar=document.createElement('div');bar.className='toolbar';bar.setAttribute('role','toolbar');bar.setAttribute('aria-label','Formatting');
TOOLS.forEach(function(t){var b=document.createElement('button');b.type='button';b.className='secondary tool';b.textContent=t[0];b.setAttribute('aria-label',t[1]);b.addEventListener('click',function(){wrap(ta,t[2],t[3]);});bar.appendChild(b);});
ta.parentNode.insertBefore(bar,ta);
var box=ta.closest('.composer'),url=box&&box.getAttribute('data-draft'),form=ta.form,status=box&&box.querySelector('.draft-status');
if(!url||!form)return;var timer,last=ta.value;
function save(){if(ta.value===last||ta.value.trim().length<2)return;last=ta.value;var fd=new URLSearchParams();var tok=form.querySelector('[name=_csrf]');if(!tok)return;fd.set('_csrf',tok.value);fd.set('body',ta.value);var ti=form.querySelector('[name=title]');if(ti)fd.set('title',ti.value);
fetch(url,{method:'POST',body:fd,credentials:'same-origin'}).then(function(r){if(status)status.textContent=r.ok?'Draft saved.':'The draft could not be saved.';}).catch(function(){if(status)status.textContent='The draft could not be saved.';});}
ta.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(save,1500);});});
var picked='';
Array.prototype.forEach.call(document.querySelectorAll('a[data-quote]'),function(a){
a.addEventListener('mousedown',function(){var s=window.getSelection(),post=document.getElementById('post-'+a.getAttribute('data-quote'));picked=s&&s.rangeCount&&post&&post.contains(s.getRangeAt(0).commonAncestorContainer)?String(s).trim():'';});
a.addEventListener('click',function(e){if(!picked)return;e.preventDefault();var u=a.href.split('#')[0];location.href=u+'&selection='+encodeURIComponent(picked.slice(0,2000))+'#reply';});});
})();`;

type Asset = { body: string; type: string; path: string };

function build(name: string, body: string, type: string): [string, Asset] {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  return [name, { body, type, path: `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}` }];
}

const ASSETS = new Map<string, Asset>([
  build('hamlet.css', CSS, 'text/css; charset=utf-8'),
  build('ask.js', ASK_JS, 'text/javascript; charset=utf-8'),
  build('composer.js', COMPOSER_JS, 'text/javascript; charset=utf-8'),
]);
const BY_PATH = new Map([...ASSETS.values()].map((a) => [a.path, a]));

/** The hashed URL of an asset. */
export function asset(name: string): string {
  const a = ASSETS.get(name);
  if (!a) throw new Error(`No asset ${name}`);
  return a.path;
}

/** The asset at a request path, if any. */
export function assetAt(path: string): Asset | undefined {
  return BY_PATH.get(path);
}
