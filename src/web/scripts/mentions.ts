// The composer's @handle hint: typing "@" and a letter or more in a composer that names its
// suggestion URL (data-handles) lists whom it may mention (the community's members by handle or
// name, then its agents; GET …/api/v1/handles?prefix=); pressing one writes the handle. Without
// JavaScript, writing @handle by hand works the same.
export const MENTIONS_JS = `(function(){
Array.prototype.forEach.call(document.querySelectorAll('.composer[data-handles]'),function(box){
var ta=box.querySelector('textarea');if(!ta)return;var url=box.getAttribute('data-handles');
var list=document.createElement('ul');list.className='handle-hints';list.hidden=true;list.setAttribute('aria-label','People and agents you can mention');
ta.parentNode.insertBefore(list,ta.nextSibling);
var timer,last='';
function typed(){var m=/(^|[^A-Za-z0-9_@-])@([A-Za-z0-9_-]{1,30})$/.exec(ta.value.slice(0,ta.selectionStart));return m?m[2]:'';}
function hide(){list.hidden=true;list.textContent='';}
function ask(p){if(p===last)return;last=p;
fetch(url+'?prefix='+encodeURIComponent(p),{headers:{accept:'application/json'},credentials:'same-origin'})
.then(function(r){return r.ok?r.json():null;}).then(function(d){if(d&&p===typed())show(p,d.suggestions||[]);}).catch(function(){});}
function show(p,items){list.textContent='';if(!items.length){hide();return;}
items.forEach(function(i){var li=document.createElement('li'),b=document.createElement('button');b.type='button';b.className='secondary tool';
b.textContent='@'+i.handle+(i.name.toLowerCase()!==i.handle.toLowerCase()?' ('+i.name+')':'')+(i.kind==='agent'?' · agent':'');
b.addEventListener('click',function(){var s=ta.selectionStart,v=ta.value,start=s-p.length;ta.value=v.slice(0,start)+i.handle+' '+v.slice(s);
var at=start+i.handle.length+1;ta.focus();ta.selectionStart=ta.selectionEnd=at;hide();last='';});
li.appendChild(b);list.appendChild(li);});list.hidden=false;}
ta.addEventListener('input',function(){clearTimeout(timer);var p=typed();if(!p){hide();last='';return;}timer=setTimeout(function(){ask(p);},200);});
ta.addEventListener('keydown',function(e){if(e.key==='Escape')hide();});
});
})();`;
