// Copy buttons beside keys, secrets and URLs (pages/copyable.ts): shown only where the clipboard
// can be written, they copy the text of the box they name and say "Copied" in their live region.
// Without JavaScript (or a clipboard) the buttons stay hidden and the text stays selectable.
export const COPY_JS = `(function(){
if(!navigator.clipboard||!navigator.clipboard.writeText)return;
document.querySelectorAll('button[data-copy]').forEach(function(b){
var box=document.getElementById(b.getAttribute('data-copy'));if(!box)return;
var status=b.parentNode.querySelector('.copy-status');b.hidden=false;
function say(t){if(status){status.textContent='';setTimeout(function(){status.textContent=t;},30);}}
b.addEventListener('click',function(){navigator.clipboard.writeText(box.textContent.trim()).then(
function(){say('Copied');},function(){say('Could not copy: select the text and copy it yourself');});});
});})();`;
