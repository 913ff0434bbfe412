// Administration pages: values to copy (a key or secret shown once, a connector URL) with their
// Copy button, the actions of a table row side by side, and data tables (class "cards": keys,
// members, webhook deliveries, connected apps) that become one card per row on narrow screens, so
// no action button is ever pushed off the screen. An error summary at the top links to its fields.
export const ADMIN_CSS = `[hidden]{display:none!important}
.copyable{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.5rem 0}
.copyable code{flex:1 1 16rem;min-width:0;overflow-wrap:anywhere;padding:.45rem .6rem;border-radius:6px}
.copyable code.value{background:var(--code-bg);border:1px solid var(--border)}
.copyable .secret{margin:0}
.copy-status{color:var(--ok);font-weight:600;font-size:.9rem}.copy-status:empty{display:none}
.row-actions{display:flex;flex-wrap:wrap;gap:.4rem;align-items:flex-start}
.row-actions details{flex-basis:100%}
.notice.error ul{margin:.25rem 0 .5rem;padding-left:1.25rem}
@media (max-width:40rem){
table.data.cards,table.data.cards tbody,table.data.cards tr,table.data.cards td,table.data.cards tbody th{display:block;width:100%}
table.data.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.data.cards caption{display:block;text-align:left}
table.data.cards tr{border:1px solid var(--border);border-radius:8px;margin:.75rem 0;padding:.35rem .75rem;background:var(--bg)}
table.data.cards td,table.data.cards tbody th{border:0;padding:.3rem 0;background:none;font-size:1rem;overflow-wrap:anywhere}
table.data.cards [data-label]::before{content:attr(data-label);display:block;font-size:.8rem;font-weight:600;color:var(--muted)}
table.data.cards code{white-space:normal;overflow-wrap:anywhere}
}`;
