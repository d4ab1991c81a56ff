// Injected by scripts/bundle.mjs into the CommonJS bundle files that read import.meta.url (esbuild `inject`):
// the URL of the running file, computed only when read.
exports.__ebImportMeta = {
  get url() {
    return require("node:url").pathToFileURL(__filename).href;
  },
};
