// `servicespec/tester`: the contract tester, which holds a running implementation to the spec.

export { testService, DEFAULT_MAX_REQUESTS, DEFAULT_TIME_LIMIT_MS } from './tester-run.js';
export { formatReportText, formatReportJunit } from './tester-report.js';
export type { TestOptions, TestReport, CheckResult, Failure, PartSummary, SubjectCredentials, Progress } from './tester-types.js';
