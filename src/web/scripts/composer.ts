// The composer's enhancements (./pages/composer.ts): a formatting toolbar over each Markdown field,
// the draft saved to the server a moment after typing stops, and "Quote" taking the selected text
// of that post (the link's own URL quotes the whole post without JavaScript).
export const COMPOSER_JS = `(function(){
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
