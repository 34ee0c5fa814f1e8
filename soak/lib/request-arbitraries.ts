import fc from 'fast-check';

/** Ids a fuzzed request may name: real sessions, traversal, junk. */
export function sessionIdArb(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known),
    fc.constantFrom('', '..', '../../etc/passwd', 'a/b', 'x\u0000y', '%2e%2e', 'CON', '.spill'),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constant('s'.repeat(5_000)),
  );
}

const u32 = fc.oneof(
  fc.nat({ max: 200 }),
  fc.constantFrom(0, 1, 999, 1_000, 1_001, 2 ** 31, 2 ** 32 - 1),
);

const text = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant('x'.repeat(100_000)),
);

const contentBlock = fc.oneof(
  text.map((t) => ({ block: { case: 'text' as const, value: { text: t } } })),
  fc.record({ text, signature: fc.string() }).map((value) => ({
    block: { case: 'reasoning' as const, value },
  })),
  fc.record({ id: fc.string(), name: fc.string(), arguments: text }).map((value) => ({
    block: { case: 'toolCall' as const, value },
  })),
  fc
    .record({ mediaType: fc.string(), data: fc.uint8Array({ maxLength: 4_096 }) })
    .map((value) => ({ block: { case: 'image' as const, value } })),
  fc.constant({ block: { case: undefined } }),
);

/**
 * Well-typed but hostile requests for every SessionService RPC, keyed by the method's
 * local name; `spare` names sessions DeleteSession must leave alone. Enum fields take values outside their enums too (proto3 enums are open).
 */
export function requestArbs(
  known: readonly string[],
  cwds: readonly string[],
  spare: readonly string[] = [],
) {
  const sessionId = sessionIdArb(known);
  return {
    describeHost: fc.constant({}),
    listSessions: fc.record({ includeArchived: fc.boolean() }),
    watchSessions: fc.record({ includeArchived: fc.boolean() }),
    createSession: fc.record({
      cwd: fc.oneof(
        fc.constantFrom(...cwds, '', '/', 'relative', '/nonexistent', '/etc/passwd'),
        fc.string(),
      ),
      parentId: fc.oneof(fc.constant(''), sessionId),
      model: fc.oneof(fc.constant(''), fc.string({ maxLength: 50 })),
      preset: fc.string({ maxLength: 20 }),
      title: fc.oneof(fc.constant(''), text),
    }),
    page: fc.record({
      sessionId,
      beforeSeq: fc.option(u32, { nil: undefined }),
      maxMessages: u32,
    }),
    follow: fc.record({ sessionId, afterSeq: fc.option(u32, { nil: undefined }) }),
    prompt: fc.record({
      sessionId,
      content: fc.array(contentBlock, { maxLength: 4 }),
      mode: fc.integer({ min: -3, max: 9 }),
    }),
    cancel: fc.record({ sessionId }),
    respond: fc.record({
      sessionId,
      response: fc.oneof(
        fc.constant({ case: undefined }),
        fc
          .record({ approvalId: fc.string(), decision: fc.integer({ min: -2, max: 9 }) })
          .map((value) => ({ case: 'approval' as const, value })),
        fc
          .record({
            questionId: fc.string(),
            answers: fc.array(fc.record({ values: fc.array(fc.string(), { maxLength: 3 }) }), {
              maxLength: 3,
            }),
            cancelled: fc.boolean(),
          })
          .map((value) => ({ case: 'question' as const, value })),
      ),
    }),
    compact: fc.record({
      sessionId,
      instruction: fc.oneof(fc.constant(''), text, fc.string({ minLength: 4097, maxLength: 4200 })),
    }),
    editQueue: fc.record({
      sessionId,
      queueId: fc.string({ maxLength: 40 }),
      content: fc.array(contentBlock, { maxLength: 2 }),
    }),
    search: fc.record({
      query: fc.oneof(
        text,
        fc.constantFrom(
          '',
          ' ',
          '(',
          '[a-',
          '^(a+)+$',
          '(?<=x)y',
          '\\p{Foo}',
          'a{99999}',
          '(a{1000}){1000}',
          '\\',
        ),
        fc.constant('q'.repeat(1_000_001)),
      ),
      caseSensitive: fc.boolean(),
      regex: fc.boolean(),
      sessionId: fc.oneof(fc.constant(''), sessionId),
      kinds: fc.array(fc.integer({ min: -2, max: 9 }), { maxLength: 4 }),
      toolNames: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
      limit: u32,
      cursor: fc.oneof(fc.constant(''), fc.string({ maxLength: 60 }), fc.base64String()),
    }),
    updateSession: fc.record({
      sessionId,
      title: fc.option(text, { nil: undefined }),
      archived: fc.option(fc.boolean(), { nil: undefined }),
    }),
    // A probe reads the spared sessions meanwhile: deleting them would fail its reads.
    deleteSession: fc.record({
      sessionId: sessionIdArb(known.filter((id) => !spare.includes(id))),
    }),
  };
}

/** Bodies for raw requests: bytes, JSON of any shape, JSON with wrong field types. */
export const rawBodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 2_048 }),
  fc.json().map((j) => new TextEncoder().encode(j)),
  fc
    .record({
      sessionId: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string()),
      beforeSeq: fc.oneof(fc.string(), fc.double(), fc.integer()),
      maxMessages: fc.oneof(fc.constant(-1), fc.constant('NaN'), fc.double()),
      content: fc.oneof(fc.constant('x'), fc.array(fc.json())),
      mode: fc.oneof(fc.string(), fc.integer()),
    })
    .map((r) => new TextEncoder().encode(JSON.stringify(r))),
);
