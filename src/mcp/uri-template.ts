// RFC 6570 level-1 templates ("test://template/{id}/data"): enough for resource templates, where a
// variable never spans a "/". Matching is exact and anchored; values are percent-decoded.

export type CompiledTemplate = {
  variables: string[];
  match: (uri: string) => Record<string, string> | undefined;
};

export function compileTemplate(template: string): CompiledTemplate {
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const m of template.matchAll(/\{([A-Za-z_][\w]*)\}/g)) {
    pattern += escapeRegExp(template.slice(last, m.index));
    pattern += '([^/?#]+)';
    variables.push(m[1]!);
    last = m.index! + m[0].length;
  }
  pattern += escapeRegExp(template.slice(last)) + '$';
  const re = new RegExp(pattern);
  return {
    variables,
    match(uri) {
      const m = re.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      variables.forEach((name, i) => {
        out[name] = safeDecode(m[i + 1]!);
      });
      return out;
    },
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
