// One page of rows newest first, by (created_at, id) descending, resumed after the keyset of the
// previous page's last row: the listing shape of posts by author, notifications and the mail queue.
import type { Keyset, Page } from '../types.ts';
import type { AnyTableSelect } from '../any-schema.ts';

export async function newestFirst<R, T extends { createdAt: string; id: string }>(
  // Any table that has created_at and id columns: the builder's database types stay the caller's.
  query: AnyTableSelect<R>,
  page: { after?: Keyset; limit: number },
  fromRow: (row: R) => T,
): Promise<Page<T, Keyset>> {
  let q = query;
  if (page.after) {
    const { key, id } = page.after;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', String(key)),
        eb.and([eb('created_at', '=', String(key)), eb('id', '<', id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const items = rows.slice(0, page.limit).map(fromRow);
  const last = items.at(-1);
  return {
    items,
    next: rows.length > page.limit && last ? { key: last.createdAt, id: last.id } : null,
  };
}
