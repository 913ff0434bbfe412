// Reading: the history pages (pages/post-history.ts, the article's revisions) keep a version's
// line breaks; removed words are struck through on the danger tint, added words underlined on the
// ok tint, so the marks read without colour too (and in the dark scheme, whose variables change,
// the same); a version's full text keeps its Markdown as written. The topic's bookmark toggle on a
// line of its own, and the list of bookmarks (pages/bookmarks.ts).
export const READING_CSS = `.diff,.version-text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0}
.version-text{font-family:ui-monospace,monospace;font-size:.9rem;border-left:4px solid var(--border);padding-left:.75rem}
.diff del,.diff-legend del{background:var(--danger-bg);color:var(--text);text-decoration:line-through;text-decoration-thickness:2px}
.diff ins,.diff-legend ins{background:var(--ok-bg);color:var(--text);text-decoration:underline;text-decoration-thickness:2px;text-underline-offset:2px}
.version h2{margin-top:.25rem}
.topic-bookmark{margin:.5rem 0}
.bookmarks{list-style:none;padding:0}.bookmarks li{border-bottom:1px solid var(--border);padding:.5rem 0}.bookmarks li p{margin:.25rem 0}`;
