// One YAML reader for the manifests written in YAML (pnpm-workspace.yaml, Taskfiles, pubspec.yaml):
// a document, or an "invalid YAML" problem with the parser's first line and the line it stopped at.
import { parse as parseYaml, YAMLParseError } from 'yaml';

/** `{ data }` for a document that parses (duplicate keys allowed, as the tools allow them); undefined after recording the problem. */
export function readYaml(text: string, problems: Array<{ message: string; line?: number }>): { data: unknown } | undefined {
  try {
    return { data: parseYaml(text, { uniqueKeys: false }) };
  } catch (err) {
    const line = err instanceof YAMLParseError && err.linePos ? err.linePos[0].line : undefined;
    problems.push({ message: `invalid YAML: ${(err as Error).message.split('\n')[0]}`, line });
    return undefined;
  }
}
