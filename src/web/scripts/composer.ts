// The composer's enhancements (./pages/composer.ts): a formatting toolbar over each Markdown field;
// the draft (text and title) saved to the server a moment after typing stops, and once more when the
// page is left (a reload brings it back); images and files dropped on or pasted into the text,
// uploaded at once (POST data-upload) with their Markdown inserted where the cursor is (the Attach
// button stays for browsers without JavaScript); and "Quote" taking the selected text of that post
// (the link's own URL quotes the whole post without JavaScript).
export const COMPOSER_JS = `(function(){
function changed(ta){ta.dispatchEvent(new Event('input'));}
function wrap(ta,a,b){var s=ta.selectionStart,e=ta.selectionEnd,v=ta.value;ta.value=v.slice(0,s)+a+v.slice(s,e)+b+v.slice(e);ta.focus();ta.selectionStart=s+a.length;ta.selectionEnd=e+a.length;changed(ta);}
function insert(ta,t){var s=ta.selectionStart,e=ta.selectionEnd,v=ta.value;ta.value=v.slice(0,s)+t+v.slice(e);ta.selectionStart=ta.selectionEnd=s+t.length;changed(ta);}
var TOOLS=[['B','Bold','**','**'],['I','Italic','_','_'],['Link','Link','[','](https://)'],['Code','Code','\\x60','\\x60'],['Quote','Quote','> ',''],['List','Bulleted list','- ','']];
Array.prototype.forEach.call(document.querySelectorAll('textarea[data-composer]'),function(ta){
var bar=document.createElement('div');bar.className='toolbar';bar.setAttribute('role','toolbar');bar.setAttribute('aria-label','Formatting');
TOOLS.forEach(function(t){var b=document.createElement('button');b.type='button';b.className='secondary tool';b.textContent=t[0];b.setAttribute('aria-label',t[1]);b.addEventListener('click',function(){wrap(ta,t[2],t[3]);});bar.appendChild(b);});
ta.parentNode.insertBefore(bar,ta);
var box=ta.closest('.composer'),form=ta.form,status=box&&box.querySelector('.draft-status');
function say(t){if(status)status.textContent=t;}
function token(){var t=form&&form.querySelector('[name=_csrf]');return t?t.value:'';}
var up=box&&box.getAttribute('data-upload');
if(up&&form&&window.FormData){
var hint=document.createElement('p');hint.className='hint';hint.textContent='Drop or paste images into the text to attach them.';ta.parentNode.insertBefore(hint,ta.nextSibling);
var n=0;
function send(f){if(!token())return;var mark='![Uploading '+(f.name||'file')+' '+(++n)+'\\u2026]()';insert(ta,mark+'\\n');say('Uploading '+(f.name||'the file')+'\\u2026');
var fd=new FormData();fd.append('_csrf',token());fd.append('file',f,f.name||'pasted.png');
fetch(up,{method:'POST',body:fd,credentials:'same-origin',headers:{accept:'application/json'}}).then(function(r){return r.json().catch(function(){return {error:r.status===413?'The file is too large to attach.':'The file was not attached.'};});})
.then(function(d){if(d&&d.markdown){ta.value=ta.value.replace(mark,function(){return d.markdown;});say('\\u201c'+d.filename+'\\u201d is attached.');}else{ta.value=ta.value.replace(mark+'\\n','');say((d&&d.error)||'The file was not attached.');}changed(ta);})
.catch(function(){ta.value=ta.value.replace(mark+'\\n','');say('The file was not attached: the connection failed.');changed(ta);});}
function files(dt){return dt&&dt.files&&dt.files.length?Array.prototype.slice.call(dt.files):[];}
ta.addEventListener('dragover',function(e){if(e.dataTransfer&&Array.prototype.indexOf.call(e.dataTransfer.types||[],'Files')>=0){e.preventDefault();box.classList.add('dropping');}});
ta.addEventListener('dragleave',function(){box.classList.remove('dropping');});
ta.addEventListener('drop',function(e){box.classList.remove('dropping');var fs=files(e.dataTransfer);if(!fs.length)return;e.preventDefault();ta.focus();fs.forEach(send);});
ta.addEventListener('paste',function(e){var fs=files(e.clipboardData);if(!fs.length)return;e.preventDefault();fs.forEach(send);});}
var url=box&&box.getAttribute('data-draft');
if(!url||!form)return;var title=form.querySelector('[name=title]'),timer,submitting=false;
function now(){return (title?title.value+'\\n':'')+ta.value;}var last=now();
function fields(){var fd=new URLSearchParams();fd.set('_csrf',token());fd.set('body',ta.value);if(title)fd.set('title',title.value);return fd;}
function due(){return !submitting&&token()&&now()!==last&&ta.value.trim().length>=2;}
function save(){if(!due())return;last=now();
fetch(url,{method:'POST',body:fields(),credentials:'same-origin'}).then(function(r){say(r.ok?'Draft saved.':'The draft could not be saved.');}).catch(function(){say('The draft could not be saved.');});}
function later(){clearTimeout(timer);if(status&&status.textContent==='Draft saved.')say('');timer=setTimeout(save,1200);}
ta.addEventListener('input',later);if(title)title.addEventListener('input',later);
form.addEventListener('submit',function(){submitting=true;clearTimeout(timer);});
window.addEventListener('pagehide',function(){if(!due()||!navigator.sendBeacon)return;last=now();navigator.sendBeacon(url,fields());});});
var picked='';
Array.prototype.forEach.call(document.querySelectorAll('a[data-quote]'),function(a){
a.addEventListener('mousedown',function(){var s=window.getSelection(),post=document.getElementById('post-'+a.getAttribute('data-quote'));picked=s&&s.rangeCount&&post&&post.contains(s.getRangeAt(0).commonAncestorContainer)?String(s).trim():'';});
a.addEventListener('click',function(e){if(!picked)return;e.preventDefault();var u=a.href.split('#')[0];location.href=u+'&selection='+encodeURIComponent(picked.slice(0,2000))+'#reply';});});
})();`;
