// Lists of what happens: the bell's menu (a <details> under the header's bell, across the header on
// narrow screens: the newest
// notifications with avatars and excerpts, unread ones marked by a bar as well as by colour), the
// notifications page's rows, and topic lists' rows (last poster and activity, replies, views, the
// unread count and the pinned / locked / closed markers, each with words for screen readers).
export const LISTS_CSS = `.bell-menu{position:relative}.bell-menu>summary{list-style:none;cursor:pointer;display:inline-flex;align-items:center;min-height:24px;min-width:24px;padding:.1rem .2rem;border-radius:6px}
.bell-menu>summary::-webkit-details-marker{display:none}.bell-menu>summary:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.bell-panel{position:absolute;right:0;top:calc(100% + .5rem);z-index:30;width:min(24rem,calc(100vw - 2rem));background:var(--bg);border:1px solid var(--border-strong);border-radius:8px;box-shadow:0 4px 16px rgba(0,0,0,.18);padding:.25rem 0;font-size:.9rem}
@media (max-width:40rem){.bell-menu{position:static}.bell-panel{left:0;right:0;top:100%;width:auto}}
.bell-panel ul,.notification-list{list-style:none;margin:0;padding:0}
.bell-panel li a,.notification-list li>a,.notification-list li>div{display:grid;grid-template-columns:auto 1fr;column-gap:.5rem;align-items:start;padding:.5rem .75rem;color:var(--text);border-left:3px solid transparent}
.bell-panel li a:hover{background:var(--surface);text-decoration:none}
.bell-panel li.unread a,.notification-list li.unread>a,.notification-list li.unread>div{border-left-color:var(--unread);background:var(--surface)}
.bell-panel .avatar,.notification-list .avatar{grid-row:span 3;margin:0}
.bell-panel .what,.notification-list .what{font-weight:600}.bell-panel li.read .what,.notification-list li.read .what{font-weight:400}
.bell-panel .excerpt,.notification-list .excerpt{color:var(--muted);overflow-wrap:anywhere}
.bell-panel .meta,.notification-list .meta{grid-column:2}
.bell-panel>p{margin:0;padding:.5rem .75rem}.bell-panel>.bell-actions{display:flex;gap:1rem;justify-content:space-between;align-items:center;border-top:1px solid var(--border);padding:.5rem .75rem}.bell-actions form{margin:0}
.notification-list li{border-bottom:1px solid var(--border);padding:.25rem 0}.notification-list li>.badge,.notification-list li>form{margin-left:3.25rem}
.topics .life{display:flex;flex-wrap:wrap;gap:.1rem .9rem;margin-top:.15rem}.topics .life .avatar{width:1.5rem;height:1.5rem;font-size:.65rem;margin-right:.3rem}
.topics .marker{font-size:.78rem;font-weight:600;border:1px solid var(--border-strong);border-radius:1rem;padding:0 .45rem;color:var(--muted);margin-left:.35rem;white-space:nowrap}
.topics .unread-count{background:var(--unread);color:#fff;border-radius:1rem;padding:0 .45rem;font-size:.78rem;font-weight:700;margin-left:.35rem;white-space:nowrap}
.topics .new-topic{color:var(--unread);font-weight:700;font-size:.78rem;margin-left:.35rem}
.since-visit{border:1px solid var(--border);border-left:4px solid var(--unread);border-radius:8px;padding:.5rem 1rem;margin:1rem 0}`;
