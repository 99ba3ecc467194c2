"use strict";
require("./esm-only.cjs")("cua-contract/vitest");
