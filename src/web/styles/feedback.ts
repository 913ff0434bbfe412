// Votes and "this worked" on the topic page (pages/topic-feedback.ts): the score between the
// vote buttons, a pressed button filled, the report form under an accepted answer.
export const FEEDBACK_CSS = `.votes{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.5rem 0}
.votes .score{font-weight:600;min-width:4.5rem;text-align:center}
button.secondary[aria-pressed=true]{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
.outcome{margin:.5rem 0}.outcome details{margin-top:.5rem}.confirmations{margin:.25rem 0}`;
