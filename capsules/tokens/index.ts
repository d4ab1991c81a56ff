/** Public API of match tokens: group keys, canonical IOC forms, the token file, export and match over a store. */
export { canonicalIoc, CANONICALIZATION } from "./canonical.js";
export { addGroupKey, createGroupKey, GROUP_KEY_TYPE, GroupKeyError, groupKeyId, groupKeysDir, loadGroupKey, type GroupKey } from "./group-key.js";
export { exportStoreTokens, matchStoreTokens, type TokenExport, type TokenMatch } from "./store-tokens.js";
export { parseTokenBytes, readTokenFile } from "./read-token-file.js";
export { matchToken, parseTokenFile, TOKEN_FILE_MAX_BYTES, tokenFileBytes, TokenFileError, type TokenFile } from "./token-file.js";
