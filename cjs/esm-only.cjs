// cua-contract is published as ES modules only: `require()` gets this explanation instead of
// "Package subpath is not defined by exports".
"use strict";

module.exports = function esmOnly(specifier) {
  const error = new Error(
    `${specifier} is ESM-only and cannot be loaded with require(). ` +
      `Use import { … } from "${specifier}" in an ES module (a .mjs file, or "type": "module" in your package.json), ` +
      `or await import("${specifier}") from CommonJS. In TypeScript: "module": "node16"/"nodenext" with an ES module file, or "moduleResolution": "bundler".`,
  );
  error.code = "ERR_REQUIRE_ESM";
  throw error;
};
