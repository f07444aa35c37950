// Result schemas: what a client may submit for each tool, and what the service stores and
// serves. Every stored results object carries `summary`, `checks`, `consistency` and `server`; bot-detector's
// also has the exact sections the interface spec shows.

import { Type, TypeGuard, type TSchema } from '@sinclair/typebox'
import { CheckSchema, SummarySchema } from './scoring'
import { ConsistencySchema } from './consistency'
import { ElsewhereSchema, EvidenceItemSchema, PROOF_STATES } from './tools/observation'
import { AgentOutcomeSchema } from './agent-outcome'
import type { ToolId } from '../../common/tools'
import { DROPPED_LISTED, UnverifiedSchema } from './tools/verified'
import { IDENTIFYING_TOOLS, K_FLOOR, MEANINGFUL_POPULATION } from './uniqueness'

export { SummarySchema as Summary } from './scoring'

export const ScoringVerdict = Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')])

/** The bot-detector sections of the interface spec, with their member types. */
export const BotDetectorSpecSections = {
  leaks: Type.Object({ webdriver: Type.Boolean(), selenium: Type.Boolean(), phantomjs: Type.Boolean() }),
  navigator: Type.Object({ userAgent: Type.String(), platform: Type.String(), language: Type.String() }),
  screen: Type.Object({ width: Type.Integer(), height: Type.Integer(), colorDepth: Type.Integer() }),
  webgl: Type.Object({ vendor: Type.String(), renderer: Type.String() }),
  canvas: Type.Object({ hash: Type.String() }),
  scoring: Type.Object({ webdriver: ScoringVerdict, selenium: ScoringVerdict, phantomjs: ScoringVerdict }),
}

/** A bot-detector results object of exactly the spec's shape (what clients other than our page send). */
export const BotDetectorSpecResults = Type.Object(
  { summary: SummarySchema, ...BotDetectorSpecSections },
  { additionalProperties: true, description: 'bot-detector results in the interface spec’s shape.' },
)

export const ServerEvidenceSchema = Type.Object(
  {
    ip: Type.String(),
    user_agent: Type.String(),
    received_at: Type.String({ description: 'Server time at receipt, `YYYY-MM-DDTHH:MM:SS+00:00`.' }),
    headers: Type.Array(Type.Tuple([Type.String(), Type.String()]), { description: 'Request headers as the HTTP stack gives them (names lower-cased; not wire order — that comes from the raw listener evidence).' }),
    nonce: Type.String({ description: 'State of the page nonce: valid, missing (none sent), unknown (never issued, deleted after expiry, or replaced: its network loaded more than PAGE_NONCE_LIMIT pages without running them), expired or wrong-tool.' }),
    evidence: Type.Array(EvidenceItemSchema(), { description: 'What the service’s own listeners (TLS, HTTP/2, STUN/TURN, DNS) observed for this page load, then the TLS/HTTP2 fingerprints a trusted TLS-terminating proxy passed in headers for the submitting request (`source: proxy`).' }),
    evidence_dropped: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
        description: 'Observations per evidence kind the listeners saw for this page beyond the caps (items per kind, bytes per item; docs/listeners.md): counted, not kept. Absent when nothing was dropped.',
      }),
    ),
    evidence_elsewhere: Type.Optional(
      Type.Array(ElsewhereSchema(), {
        description: "The HTTPS listener's records (tls, http2, http1) filed under this page's nonce from another client address than the submitting request's (for IPv6 another /64): not in `evidence` and not judged, since they describe someone else's connection (the check `listener-address` says so; docs/listeners.md). Absent when there were none.",
      }),
    ),
    proof: Type.Optional(
      Type.Union(PROOF_STATES.map((s) => Type.Literal(s)), {
        description: "The page's proof that it ran in a browser engine for this page load (bot-detector, tls-fingerprint, http-headers; docs/scoring.md#the-page-proof): `valid`, the page laid out the layout challenge of its own nonce as the service's layout model does; `wrong`, an answer that is not this page load's (a recording, a DOM emulator's boxes of no size); `missing`, no answer; `no-nonce`, no live nonce to derive the challenge from. Absent for the other tools and on tasks stored before 2026-12-01.",
      }),
    ),
    proof_detail: Type.Optional(Type.String({ description: 'What the verification of `proof` found, in one line.' })),
    agent: Type.Optional(AgentOutcomeSchema()),
  },
  { additionalProperties: true, description: 'What the service itself observed of the submitting request.' },
)

const FigureProperties = {
  browsers: Type.Union([Type.Integer({ minimum: K_FLOOR }), Type.Null()], { description: `Distinct browsers with this value in the window, the submitter's included; null when fewer than ${K_FLOOR} (then \`rare\`).` }),
  rare: Type.Boolean({ description: "Fewer than `k` of this instance's browsers have the value: never counted exactly; the instance's part of `share` is then an upper bound (from k − 1 browsers), so is the figure where those counts weigh in (`bound`)." }),
  share: Type.Number({ description: "The share of browsers with the value (6 decimals; 6 significant digits under a millionth): this instance's browsers / population, the reference dataset's share, or their blend (`source`)." }),
  oneIn: Type.Number({ description: '1 / share: "one in N" (2 decimals).' }),
  bits: Type.Number({ description: 'Identifying information, −log2(share) (3 decimals).' }),
  // Issue 59: the reference population. Absent on tasks stored before it (their figures are the instance's alone).
  source: Type.Optional(
    Type.Union([Type.Literal('reference'), Type.Literal('blended'), Type.Literal('instance')], {
      description: "Where share, oneIn and bits come from: the reference dataset alone (this instance's counts weigh nothing yet), both blended, or this instance's counts alone (it has counted enough browsers, or the dataset lacks the attribute: then inReference is false).",
    }),
  ),
  inReference: Type.Optional(Type.Boolean({ description: 'Whether the reference dataset has this attribute (fingerprint: any of its attributes, listed in `covered`).' })),
  referenceShare: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: "The value's share among the reference dataset's browsers (6 significant digits); null when the dataset lacks it." })),
  bound: Type.Optional(Type.Boolean({ description: 'share is an upper bound, oneIn and bits lower bounds: the value is rare on this instance (and its counts weigh in), or the reference does not list it.' })),
}

/** results.uniqueness (issue 48, src/core/uniqueness.ts; docs/uniqueness.md). */
export const UniquenessSchema = Type.Union(
  [
    Type.Object({
      population: Type.Integer({ minimum: 1, description: "Distinct browsers this service counted for the tool in the window, the submitter's included: one per network (IPv4 address, IPv6 /64) and combination of values." }),
      windowDays: Type.Integer({ description: 'The window, in days (UNIQUENESS_WINDOW_DAYS; never longer than TASK_RETENTION_DAYS).' }),
      meaningful: Type.Boolean({ description: "population ≥ minimumPopulation: this instance's own counts are meaningful; below it only the figures from the reference (source 'reference') say much." }),
      minimumPopulation: Type.Integer({ description: `Currently ${MEANINGFUL_POPULATION}.` }),
      k: Type.Integer({ description: `Values fewer than k browsers have are rare (never an exact count); currently ${K_FLOOR}.` }),
      perRange: Type.Integer({ description: 'New browsers one range (IPv4 /24, IPv6 /48) adds per tool and window (UNIQUENESS_BROWSERS_PER_RANGE): the flood bound.' }),
      browser: Type.Union([Type.Literal('seen before'), Type.Literal('new'), Type.Literal('not counted: its range is full')], { description: 'Whether this browser was counted before, is counted now, or is in its own figures only (its range added perRange browsers already).' }),
      fingerprint: Type.Object(
        { ...FigureProperties, covered: Type.Optional(Type.Array(Type.String(), { description: "The attributes the reference's figure for the combination covers (the product of their shares within each browser family and system)." })) },
        { description: "The whole combination (browser-fingerprint: the visitor id): how many browsers share every value." },
      ),
      attributes: Type.Array(
        Type.Object({
          name: Type.String(),
          label: Type.String(),
          shown: Type.Union([Type.String(), Type.Null()], { description: 'A short form of the value; null where the results keep only a hash.' }),
          ...FigureProperties,
        }),
        { description: 'Each identifying attribute, the rarest first.' },
      ),
      reference: Type.Optional(
        Type.Union([
          Type.Object({
            name: Type.String({ description: 'The dataset (npm package), e.g. fingerprint-generator.' }),
            version: Type.String(),
            license: Type.String(),
            url: Type.String(),
            date: Type.String({ description: "The dataset's date (YYYY-MM-DD)." }),
            fingerprints: Type.Integer({ description: "Real browsers' fingerprints the dataset was learned from." }),
            weight: Type.Integer({ description: "The reference's weight in browsers: the instance's counts weigh n/(n + weight), rescaled from [0.1, 0.9] to [0, 1] (n: the browsers counted besides the submitter's)." }),
            instanceWeight: Type.Number({ description: "How much this instance's counts weigh in a blended figure, 0 to 1 (3 decimals)." }),
          }),
          Type.Null(),
        ], { description: 'The reference population this tool\'s figures use (docs/uniqueness.md); null when the dataset has none of its attributes.' }),
      ),
    }),
    Type.Null(),
  ],
  { description: 'How identifying this browser is among the distinct browsers this service saw in the window (docs/uniqueness.md). Null when nothing identifying was read or the counts could not be read. Absent on tasks stored before 2026-11-29 and on tools that identify nothing.' },
)

/** The stored results of a tool, as GET /api/antibot/tasks/{id} serves them. */
export function storedResultsSchema(tool: ToolId, sections?: TSchema, signals?: TSchema): TSchema {
  const base = {
    summary: SummarySchema,
    checks: Type.Array(CheckSchema),
    ruleset: Type.Optional(
      Type.String({
        pattern: '^r[0-9]+-[0-9a-f]{16}$',
        description:
          'The rules that judged the task, e.g. `r1-3f9c0a7d5e21b846`: computed by the service from the tool\'s checks, their weights and order, and the code that judges them — the checks, the scoring formula and the verdict thresholds (docs/scoring.md, "The ruleset"). It changes whenever any of them changes; two tasks with the same ruleset were judged by the same rules, so their checks and scores compare. Always the service\'s: a `ruleset` a client submits is dropped. Absent on tasks stored before 2026-11-29.',
      }),
    ),
    tested: Type.Optional(
      Type.Boolean({
        description:
          "Whether the tool's main evidence was collected, so that the score is a result of its test. `false` when it was not — tls-fingerprint without the client's TLS handshake, dns-leak without the service's DNS listener, or any task none of whose checks could be judged — and then `untested` says why; `score` is still the score of the checks that ran (an integer equal to `summary.score`), not a verdict on the tool's question. Absent on tasks stored before this field (2026-11-27).",
      }),
    ),
    untested: Type.Optional(
      Type.Object(
        {
          reason: Type.String({ description: 'Why the main evidence is missing, in one line.' }),
          url: Type.Union([Type.String(), Type.Null()], { description: 'Where the test can be run instead (e.g. the same tool over HTTPS); null when nowhere on this service as configured.' }),
        },
        { description: 'Present only when `tested` is false.' },
      ),
    ),
    verified: Type.Boolean({
      description:
        'True when the service judged the task: its own checks made the score — on the page\'s signals and on what it observed itself (the request\'s headers and address, the listeners\' evidence) — and the task came with the live single-use nonce of a page this service rendered, so `server.evidence` belongs to that page load. False otherwise, and `unverified` says why: no live nonce (`server.nonce` says what was wrong with it), or a bot-detector body of the spec\'s shape, which is scored from its own `scoring` entries, the client\'s word, whatever nonce it carries. Checks with `source: "server"` judge what the service observed, which a client cannot fake; `source: "client"` ones judge what the client reported.',
    }),
    unverified: Type.Optional(UnverifiedSchema),
    dropped: Type.Optional(
      Type.Array(Type.String(), {
        description: `Top-level members of the submitted results that were not stored, by name (at most the first ${DROPPED_LISTED}, each cut to 64 characters): everything the judging did not read — the service's own members (\`verdict\`, \`frameworks\`, \`checks\`, \`summary\` beside signals, \`ruleset\`, \`server\`, \`verified\`, a tool's sections) and anything else. A task keeps \`signals\`, or a spec body's sections; nothing a client writes is served as the service's. Absent when nothing was dropped.`,
      }),
    ),
    consistency: ConsistencySchema,
    server: ServerEvidenceSchema,
    ...(signals ? { signals: Type.Optional(signals) } : {}),
    ...((IDENTIFYING_TOOLS as readonly string[]).includes(tool) ? { uniqueness: Type.Optional(UniquenessSchema) } : {}),
  }
  const extra = tool === 'bot-detector' ? BotDetectorSpecSections : {}
  // A tool's own sections are object properties: merge them into one object schema (readable
  // in OpenAPI, unlike an allOf), keeping the spec's bot-detector sections where both exist.
  if (sections && TypeGuard.IsObject(sections)) {
    return Type.Object({ ...sections.properties, ...base, ...extra }, { additionalProperties: true, title: `${tool} results` })
  }
  const schema = Type.Object({ ...base, ...extra }, { additionalProperties: true, title: `${tool} results` })
  return sections ? Type.Intersect([schema, sections]) : schema
}

import { TOOL_DEFINITIONS } from './tools/registry'

/** The stored results schema of a tool (for the OpenAPI document and for clients to type). */
export function resultsSchema(tool: ToolId): TSchema {
  const def = TOOL_DEFINITIONS[tool]
  return storedResultsSchema(tool, def?.sections, def?.signals)
}

/** Kept for readers of the spec: bot-detector's submitted shape. */
export const BotDetectorResults = BotDetectorSpecResults
