// The 2026-07-28 `subscriptions/listen` streams this instance holds. Each listens on one endpoint
// (scope) for the change notifications it asked for: list changes, and updates of the resources it
// named. Updates are found through an index by resource, never by scanning every stream.
import type { JsonRpcId, JsonRpcNotification } from './jsonrpc.ts';

export type ListenFilter = {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose status changes the stream hears (notifications/tasks, Tasks extension). */
  taskIds?: string[];
};

export type Listener = {
  id: JsonRpcId;
  filter: ListenFilter;
  send(message: JsonRpcNotification): void;
};

const FLAG = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

/** The subscription id every message on a listen stream carries: the id of the listen request. */
export function tagged(
  id: JsonRpcId,
  method: string,
  params: Record<string, unknown> = {},
): JsonRpcNotification {
  return {
    jsonrpc: '2.0',
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
  };
}

export class ListenHub {
  private readonly byScope = new Map<string, Set<Listener>>();
  private readonly byResource = new Map<string, Set<Listener>>();

  /** Holds `listener` until the returned function is called (its stream closed). */
  add(scope: string, listener: Listener): () => void {
    const keys = (listener.filter.resourceSubscriptions ?? []).map((uri) => `${scope}\u0000${uri}`);
    add(this.byScope, scope, listener);
    for (const key of keys) add(this.byResource, key, listener);
    return () => {
      remove(this.byScope, scope, listener);
      for (const key of keys) remove(this.byResource, key, listener);
    };
  }

  listChanged(scope: string, list: 'tools' | 'prompts' | 'resources'): void {
    for (const l of this.byScope.get(scope) ?? [])
      if (l.filter[FLAG[list]]) l.send(tagged(l.id, `notifications/${list}/list_changed`));
  }

  resourceUpdated(scope: string, uri: string): void {
    for (const l of this.byResource.get(`${scope}\u0000${uri}`) ?? [])
      l.send(tagged(l.id, 'notifications/resources/updated', { uri }));
  }

  /** notifications/tasks, the task as tasks/get shows it, to the streams that named it. */
  taskChanged(scope: string, task: { taskId: string } & Record<string, unknown>): void {
    for (const l of this.byScope.get(scope) ?? [])
      if (l.filter.taskIds?.includes(task.taskId))
        l.send(tagged(l.id, 'notifications/tasks', task));
  }

  /**
   * After notifications may have been missed: every listener hears that each list it watches may
   * have changed, and each resource it subscribed to may have been updated.
   */
  resync(): void {
    for (const set of this.byScope.values())
      for (const l of set) {
        for (const list of ['tools', 'prompts', 'resources'] as const)
          if (l.filter[FLAG[list]]) l.send(tagged(l.id, `notifications/${list}/list_changed`));
        for (const uri of l.filter.resourceSubscriptions ?? [])
          l.send(tagged(l.id, 'notifications/resources/updated', { uri }));
      }
  }

  /** Open listen streams of this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.byScope.values()) n += set.size;
    return n;
  }
}

function add<K>(map: Map<K, Set<Listener>>, key: K, l: Listener): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(l);
}

function remove<K>(map: Map<K, Set<Listener>>, key: K, l: Listener): void {
  const set = map.get(key);
  if (set?.delete(l) && set.size === 0) map.delete(key);
}
