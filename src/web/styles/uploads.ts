// Files in posts: an uploaded image fits the column (its width and height attributes keep the space
// it takes while it loads, height follows the width), and the composer's file field with its
// Attach button on one line where there is room.
export const UPLOADS_CSS = `
.post-body img{max-width:100%;height:auto;border:1px solid var(--border);border-radius:4px}
.attach{margin-top:1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}.attach label,.attach .hint{flex-basis:100%;margin:0}
.attach input[type=file]{color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:4px;padding:.25rem}
`;
