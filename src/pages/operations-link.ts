// Where the pages send a person for what only the operator of an instance can set up: the
// docs page's section on it (src/pages/docs.tsx OperatorSettings).
export const OPERATIONS_HREF = '/docs#operations'
