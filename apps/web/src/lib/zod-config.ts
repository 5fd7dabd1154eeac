/**
 * Coffer's content security policy allows no eval. Zod would otherwise probe for it (with
 * `new Function`) before its first object check, and every browser would report that probe
 * as a policy violation; told `jitless`, it checks the same way without compiling.
 *
 * Zod takes its settings from this global when it loads (every copy of zod shares it), so
 * setting it here, before any page module loads zod, keeps zod out of the entry script.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
