/**
 * Minimal require hook so `.ts` sources run directly with Node (the emulator
 * bin in a source checkout, test child processes) without a build step.
 * Uses @swc/core, which jest already needs.
 */
const fs = require("node:fs")
const { transformSync } = require("@swc/core")

require.extensions[".ts"] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, "utf8")
  const { code } = transformSync(source, {
    filename,
    sourceMaps: "inline",
    module: { type: "commonjs" },
    jsc: {
      target: "es2021",
      parser: { syntax: "typescript", decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
  })
  module._compile(code, filename)
}
