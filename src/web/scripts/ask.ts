// Similar questions while typing the title on /ask: asks /ask/similar (the server's own check, the
// same list the "Check for similar questions" button renders without JavaScript) and shows it.
import { LIMITS } from '../../domain/fields.ts';

export const ASK_JS = `(function(){
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
