/**
 * The answers of this test file's checked servers that contradicted the OpenAPI document (no
 * imports: the setup file loads it everywhere).
 */
const problems: string[] = [];
/** `METHOD /template status` of every checked answer. */
const seen = new Set<string>();

export function recordAnswerProblems(found: readonly string[]): void {
  problems.push(...found);
}

export function recordAnswerSeen(answer: string): void {
  seen.add(answer);
}

/** What the document's checked answers covered: for measuring, with OPENAPI_COVERAGE_FILE. */
export function answersSeen(): string[] {
  return [...seen];
}

export function answerProblems(): string[] {
  return [...problems];
}
