// Child of the crash test: writes posts and waits to be SIGKILLed.
//   uncommitted: one open transaction with many posts, killed before COMMIT
//   committed:   single-post transactions in a loop, killed at any point between or inside them
import { openStore } from '../../src/store/open.ts';

const [url, communityId, topicId, mode] = process.argv.slice(2) as [string, string, string, string];
const store = await openStore(url, { migrate: false });
const author = { kind: 'person' as const, id: null, name: 'Crash' };
if (mode === 'uncommitted') {
  await store.transaction(async (tx) => {
    for (let i = 0; i < 50; i++)
      await tx
        .community(communityId)
        .posts.create({ topicId, author, body: `uncommittedword ${i}` });
    process.stdout.write('ready\n');
    await new Promise(() => {});
  });
} else {
  let i = 0;
  for (;;) {
    await store
      .community(communityId)
      .posts.create({ topicId, author, body: `committedword ${i}` });
    if (++i === 20) process.stdout.write('ready\n');
  }
}
