// Public API of @dsh/tools-codemode. Explicit named re-exports only; no logic here.
export type {
  CodeLanguage,
  CodeRunFailureKind,
  CodeRunHost,
  CodeRunOutcome,
  CodeRunRequest,
  CodeRuntime,
} from './code-runtime'
