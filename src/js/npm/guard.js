// Keeps every object the wasm module did not make, or made and freed, and
// every object of the wrong class, out of the wasm code; and keeps the wasm
// memory out of reach of JS.
//
// The glue wasm-bindgen generates (`compgym.js`) passes a class's pointer
// into the wasm memory, and trusts it: given another class's pointer
// (`Space.prototype.toJSON.call(rng)`), a number of the user's choosing
// (`{__wbg_ptr: 8}`, a Proxy that answers 8, a pointer written over) or a
// freed one, the wasm code reads, writes or frees memory that is not that
// object's. So here every object is branded where the module makes it, with
// its class and pointer in a private field of this module's (`Brands`), and
// every entry point checks the brand before any wasm code runs:
//
// - Pointers: the build rewrites the glue (`scripts/guard-glue.mjs`) so that
//   it reads, sets and takes an object's pointer through `guardPointer`,
//   `guardSetPointer` and `guardTakePointer` here, never through the
//   object's `__wbg_ptr` or `__destroy_into_raw`. A property user code
//   adds, shadows or redefines on an object, or a changed prototype, is
//   never read by the glue: it cannot put another pointer in the object's
//   place, and the objects need no own properties to stop it.
// - Made: the glue sets the pointer in a class's constructor and in its
//   static `__wrap` (every object a call returns, directly or inside an
//   array, comes through it), which only notes it; the constructor (through
//   the class exported in its place, see `exportedClass`) and `__wrap` then
//   brand the object. The raw classes, and so `__wrap`, are never exported.
// - Checked: every method, getter, setter and static method throws a
//   TypeError unless `this` and each class argument (the glue's
//   `_assertClass` calls, listed at build time in its
//   `GUARD_CLASS_ARGUMENTS`) are branded with the right class: an object of
//   another class, a Proxy of a real object, an object built from a
//   prototype, or anything else. A freed object is a ValueError.
// - Freed: `free()` (and a method that takes its argument by value) takes
//   the pointer through `guardTakePointer`, which removes the brand: the
//   object can no longer reach the wasm code. `free()` twice is a no-op;
//   through a Proxy or on another class's object it is a TypeError.
// - `initSync()` and `init()` return nothing: the glue's return the wasm
//   exports, and with them the memory.
//
// An exception that unwinds through wasm frames skips their epilogues (the
// shadow stack leaks a frame each time until the instance dies), and a trap
// leaves a borrowed object borrowed for ever, so all of this is decided in
// JS before the wasm code is entered.
//
// `free()` inside a call on the same object (from a callback of `env.step`,
// say) lets go of the object at once and of its memory when that call
// returns; the glue reports that as an error, here it is what `free()`
// asked for.
//
// The glue throws plain Errors of its own in one more place, made typed
// here: a call that needs an object mutably while a call on it is still
// running (a Proxy trap or callback inside `space.contains(value)` that
// calls `space.sample()`) is refused, which is a ServiceError like every
// other re-entry. A wrapper costs a private-field read or two per call.
//
// Nothing here reads a function's source or a class's `name`: bundlers rename
// classes and parameters and minifiers rewrite calls, so classes are named by
// the names the bindings module exports them under, and the class arguments
// come from the table the build wrote.
import { namedError } from './errors.js';

/** @typedef {typeof import('./compgym.js')} Bindings */
/**
 * A class of the glue, read by reflection: its prototype's members are
 * wrapped by name, whatever they are.
 * @typedef {{ new (...args: any[]): object, readonly name: string, prototype: GluePrototype, __wrap?: (ptr: number) => object }} GlueClass
 * @typedef {{ free(this: object): void, __destroy_into_raw(this: object): number, [member: string | symbol]: any }} GluePrototype
 */
/** @typedef {{ klass: GlueClass, ptr: number }} Brand */

/**
 * The bindings module, for its `errorNames()`.
 * @type {Bindings | undefined}
 */
let bindings;

/** The names compgym gives its errors: asked of the module on first need, since
 * in a browser it is guarded before `init()` has loaded the wasm. */
/** @type {Set<string> | undefined} */
let errorNames;
function compgymNames() {
  if (!errorNames) {
    try {
      errorNames = new Set(/** @type {Bindings} */ (bindings).errorNames());
    } catch {
      return new Set(); // not initialised yet: no error of the package can have been thrown
    }
  }
  return errorNames;
}

/** How the glue starts the message of a call refused because its object is busy. */
const BUSY = 'recursive use of an object detected';

/** How the glue starts the message of a `free()` made while a call on the object runs. */
const STILL_BORROWED = 'attempted to take ownership of Rust value while it was borrowed';

/**
 * `error`, thrown by member `what`, with a compgym name if the glue threw it.
 * @param {unknown} error
 * @param {string} what
 */
function retyped(error, what) {
  // compgym's own errors pass, and so does a trap of the wasm code (a crash stays visible).
  if (!(error instanceof Error) || error instanceof WebAssembly.RuntimeError || compgymNames().has(error.name)) {
    return error;
  }
  if (error.message.startsWith(BUSY)) {
    return namedError('ServiceError', `${what}: the object is busy: a callback or getter run by a call on it cannot use it again`);
  }
  return error;
}

// ---- brands ----

/** The brand of a freed object (or one given to a call that took it). */
const FREED = null;

/** A base class whose constructor returns the object it is given, so that a
 * subclass's constructor adds its private fields to any object. */
class Stamp {
  /** @param {object} obj */
  constructor(obj) {
    // eslint-disable-next-line no-constructor-return -- how a class stamps its private fields on another object
    return obj;
  }
}

/**
 * Each object's brand, in a private field the module stamps on the objects
 * it makes: what a WeakMap from object to brand would hold, read and written
 * at the cost of a property (a fork makes one object), and no user code can
 * read, write or forge it. A Proxy has no private field of its target's.
 */
class Brands extends Stamp {
  /** @type {Brand | typeof FREED} */
  #brand;
  /**
   * @param {object} obj
   * @param {Brand} brand
   */
  constructor(obj, brand) {
    super(obj);
    this.#brand = brand;
  }
  /**
   * The brand of `value`: undefined unless the module made it, FREED once freed.
   * @param {unknown} value
   * @returns {Brand | typeof FREED | undefined}
   */
  static of(value) {
    return typeof value === 'object' && value !== null && #brand in value ? value.#brand : undefined;
  }
  /** @param {object} obj a live object the module made */
  static free(obj) {
    if (#brand in obj) obj.#brand = FREED;
  }
}

/** The object the glue is making and the pointer it assigned to it (see the
 * prototype's setter): the glue assigns the pointer, registers the object for
 * finalisation and hands it to `brand`, running no user code in between, so
 * one object is pending at a time. */
/** @type {object | null} */
let pendingObject = null;
let pendingPointer = 0;
/** The object whose pointer `guardTakePointer` is taking: the glue sets it to 0. */
/** @type {object | null} */
let destroying = null;

/** Each class's own `__destroy_into_raw` (the glue's, rewritten): what taking a pointer runs. */
/** @type {Map<GlueClass, (this: object) => number>} */
const destroyOf = new Map();

/**
 * Each glue class's name as the bindings module exports it, for messages and
 * `isLiveOf`: its own `name` is set to the same, but user code could redefine it.
 * @type {Map<GlueClass, string>}
 */
const classNames = new Map();

/** @param {GlueClass} klass */
function nameOf(klass) {
  return classNames.get(klass) ?? klass.name;
}

/**
 * A short description of `value` for an error message; runs no user code.
 * @param {unknown} value
 */
function kindOf(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return typeof value;
  const brand = Brands.of(value);
  if (brand) return `a ${nameOf(brand.klass)}`;
  return brand === FREED ? 'a freed object' : 'an object compgym did not make (or a Proxy of one)';
}

/**
 * Whether `value` is a live object of the class named `className`, read from
 * its brand: runs no user code, so a Proxy (whose `instanceof` would run its
 * traps) is simply not one.
 * @param {unknown} value
 * @param {string} className
 */
export function isLiveOf(value, className) {
  const brand = Brands.of(value);
  return brand !== undefined && brand !== FREED && nameOf(brand.klass) === className;
}

/**
 * Throws unless `value` is a live object of `klass`; `where` and `role` name
 * it ("Space.prototype.sample", "this"), joined only for an error.
 * @param {unknown} value
 * @param {GlueClass} klass
 * @param {string} where
 * @param {string} role
 */
function requireLive(value, klass, where, role) {
  const brand = Brands.of(value);
  if (brand !== undefined && brand !== FREED && brand.klass === klass) return;
  const what = `${where}: ${role}`;
  if (brand === FREED) {
    throw namedError('ValueError', `${what} was freed: free() was called on it, or a call took it`);
  }
  throw namedError('TypeError', `${what} is not a ${nameOf(klass)} made by compgym: it is ${kindOf(value)}`);
}

// ---- the glue's pointers (see scripts/guard-glue.mjs) ----

/**
 * The pointer of `obj` for the glue: its brand's, or while the glue is
 * making it, the one the glue set. Entry points have checked `obj` already.
 * @param {object} obj
 * @returns {number}
 */
export function guardPointer(obj) {
  const brand = Brands.of(obj);
  if (brand !== undefined && brand !== FREED) return brand.ptr;
  if (brand === undefined && obj === pendingObject) return pendingPointer;
  throw namedError(brand === FREED ? 'ValueError' : 'TypeError', `${kindOf(obj)} has no pointer`);
}

/**
 * The glue setting `obj`'s pointer: noted for `brand` while it makes the
 * object, or 0 while `guardTakePointer` takes it; never anything else.
 * @param {object} obj
 * @param {number} ptr
 */
export function guardSetPointer(obj, ptr) {
  if (obj === destroying && ptr === 0) return;
  if (Brands.of(obj) !== undefined) throw namedError('TypeError', '__wbg_ptr is read-only');
  pendingObject = obj;
  pendingPointer = ptr;
}

/**
 * Takes the pointer of live `obj` (for `free()`, or a call that takes it by
 * value): runs its class's `__destroy_into_raw` (which leaves the glue's
 * finalizer) and removes the brand, so the object reaches the wasm code no more.
 * @param {object} obj
 * @returns {number}
 */
export function guardTakePointer(obj) {
  const brand = Brands.of(obj);
  if (brand === undefined || brand === FREED) {
    throw namedError(brand === FREED ? 'ValueError' : 'TypeError', `${kindOf(obj)} cannot be freed`);
  }
  destroying = obj;
  try {
    /** @type {(this: object) => number} */ (destroyOf.get(brand.klass)).call(obj);
  } finally {
    destroying = null;
    Brands.free(obj);
  }
  return brand.ptr;
}

/**
 * Brands `obj`, just made by the glue as a `klass`, with the pointer the glue set.
 * @param {object} obj
 * @param {GlueClass} klass
 */
function brand(obj, klass) {
  const ptr = obj === pendingObject ? pendingPointer : 0;
  pendingObject = null;
  if (ptr === 0) throw namedError('TypeError', `${nameOf(klass)} cannot be made with new: use its factories`);
  new Brands(obj, { klass, ptr });
  return obj;
}

// ---- the glue's functions, checked ----

/**
 * The methods of the table whose class arguments are checked: every one, once the bindings are guarded.
 * @type {Set<string>}
 */
const checkedMethods = new Set();

/**
 * The class arguments of glue method `what` ("Space.prototype.sampleWith"):
 * `[index, class, optional, parameter]` for each, from the table the build
 * wrote into the glue (see scripts/guard-glue.mjs).
 * @param {string} what
 * @param {Bindings} api
 * @returns {[number, GlueClass, boolean, string][]}
 */
function classArguments(what, api) {
  /** @type {{ [what: string]: [number, string, boolean, string][] }} */
  const table = /** @type {any} */ (api).GUARD_CLASS_ARGUMENTS;
  if (typeof table !== 'object' || table === null) {
    throw new Error('guard.js: the glue has no GUARD_CLASS_ARGUMENTS (built without scripts/guard-glue.mjs?)');
  }
  if (!Object.hasOwn(table, what)) return [];
  checkedMethods.add(what);
  return table[what].map(([index, className, optional, param]) => {
    const klass = /** @type {{ [name: string]: unknown }} */ (api)[className];
    if (!isGlueClass(klass)) throw new Error(`guard.js: ${what} takes a ${className}, which the glue does not export`);
    return [index, klass, optional, param];
  });
}

/**
 * `f` (a method, getter, setter or static method of the glue) with `this` and its class arguments checked.
 * @param {Function} f
 * @param {string} what
 * @param {GlueClass | null} self the class of `this`; null for a static method
 * @param {Bindings} api
 */
function checked(f, what, self, api) {
  const classArgs = classArguments(what, api);
  /** @this {unknown} @param {unknown[]} args */
  const wrapped = function (...args) {
    if (self !== null) requireLive(this, self, what, 'this');
    for (const [index, klass, optional, param] of classArgs) {
      const arg = args[index];
      if (optional && (arg === undefined || arg === null)) continue;
      requireLive(arg, klass, what, param);
    }
    try {
      return f.apply(this, args);
    } catch (error) {
      throw retyped(error, what);
    }
  };
  Object.defineProperty(wrapped, 'length', { value: f.length });
  Object.defineProperty(wrapped, 'name', { value: f.name });
  return wrapped;
}

/**
 * Wraps the methods and accessors of `holder` (a class, or its prototype with `self` its class).
 * @param {object} holder
 * @param {string} prefix
 * @param {GlueClass | null} self
 * @param {Bindings} api
 */
function checkMembers(holder, prefix, self, api) {
  for (const key of Object.getOwnPropertyNames(holder)) {
    // The glue's own helpers (`__wrap`, `__destroy_into_raw`) and `free` are guarded apart.
    if (key === 'constructor' || key === 'free' || key.startsWith('__')) continue;
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    if (!descriptor?.configurable) continue;
    const what = `${prefix}${key}`;
    if (typeof descriptor.value === 'function') {
      Object.defineProperty(holder, key, { ...descriptor, value: checked(descriptor.value, what, self, api) });
    } else if (descriptor.get || descriptor.set) {
      Object.defineProperty(holder, key, {
        ...descriptor,
        get: descriptor.get && checked(descriptor.get, what, self, api),
        set: descriptor.set && checked(descriptor.set, what, self, api),
      });
    }
  }
}

// ---- one class ----

/**
 * Guards the glue's class `klass` in place (its prototype and static
 * methods, `__wrap`, `free`) and returns the class to export in its place.
 * @param {GlueClass} klass
 * @param {string} name the name the bindings module exports it under
 * @param {Bindings} api
 */
function guardClass(klass, name, api) {
  classNames.set(klass, name);
  // What `Space.name` and `space.constructor.name` say, whatever a bundler renamed the class to.
  Object.defineProperty(klass, 'name', { value: name, configurable: true });
  const proto = klass.prototype;
  checkMembers(klass, `${name}.`, null, api);
  checkMembers(proto, `${name}.prototype.`, klass, api);

  // The glue no longer reads these (see the top of this file); read, they
  // tell a live object's pointer, and they cannot be written or replaced.
  Object.defineProperty(proto, '__wbg_ptr', {
    configurable: false,
    /** @this {object} */
    get() {
      requireLive(this, klass, `${name}.prototype.__wbg_ptr`, 'this');
      return guardPointer(this);
    },
    set() {
      throw namedError('TypeError', '__wbg_ptr is read-only');
    },
  });
  destroyOf.set(klass, proto.__destroy_into_raw);
  /** @this {object} */
  const guardedDestroy = function () {
    requireLive(this, klass, name, 'this');
    return guardTakePointer(this);
  };
  Object.defineProperty(proto, '__destroy_into_raw', { value: guardedDestroy, writable: false, configurable: false });

  const wrap = klass.__wrap;
  if (typeof wrap === 'function') {
    // Every object a call returns is made here (never exported: see `exportedClass`).
    /** @param {number} ptr */
    klass.__wrap = function (ptr) {
      return brand(wrap.call(klass, ptr), klass);
    };
  }

  const free = proto.free;
  const freeWhere = `${name}.prototype.free`;
  /** @this {object} */
  const guardedFree = function () {
    if (Brands.of(this) === FREED) return;
    // A Proxy would answer the glue's reads with its own pointer, and the glue
    // would miss the object in its FinalizationRegistry, which would then free
    // the memory a second time.
    requireLive(this, klass, freeWhere, 'this');
    try {
      free.call(this);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith(STILL_BORROWED))) throw error;
    }
  };
  Object.defineProperty(guardedFree, 'name', { value: 'free' });
  proto.free = guardedFree;
  if (typeof Symbol.dispose === 'symbol' && proto[Symbol.dispose] === free) proto[Symbol.dispose] = guardedFree;

  return exportedClass(klass);
}

/**
 * The class users get for `klass`: the same prototype and static methods,
 * `new` brands what it makes, and `__wrap` (which would brand any number)
 * cannot be read, written or listed.
 * @param {GlueClass} klass
 * @returns {GlueClass}
 */
function exportedClass(klass) {
  const hidden = (/** @type {string | symbol} */ key) => key === '__wrap';
  /** @type {GlueClass} */
  const exported = new Proxy(klass, {
    construct(target, args, newTarget) {
      // A subclass's prototype, read before anything is made.
      const proto = newTarget === exported ? null : newTarget.prototype;
      let obj;
      try {
        obj = Reflect.construct(klass, args);
      } catch (error) {
        throw retyped(error, nameOf(klass));
      }
      brand(obj, klass);
      if (proto !== null && typeof proto === 'object' && proto !== klass.prototype) Object.setPrototypeOf(obj, proto);
      return obj;
    },
    get: (target, key, receiver) => (hidden(key) ? undefined : Reflect.get(target, key, receiver === exported ? target : receiver)),
    has: (target, key) => !hidden(key) && Reflect.has(target, key),
    getOwnPropertyDescriptor: (target, key) => (hidden(key) ? undefined : Reflect.getOwnPropertyDescriptor(target, key)),
    ownKeys: (target) => Reflect.ownKeys(target).filter((key) => !hidden(key)),
    set: (target, key, value, receiver) => !hidden(key) && Reflect.set(target, key, value, receiver === exported ? target : receiver),
    defineProperty: (target, key, descriptor) => !hidden(key) && Reflect.defineProperty(target, key, descriptor),
    deleteProperty: (target, key) => !hidden(key) && Reflect.deleteProperty(target, key),
  });
  Object.defineProperty(klass.prototype, 'constructor', { value: exported, writable: true, configurable: true, enumerable: false });
  return exported;
}

/**
 * Whether `value` is one of the glue's classes.
 * @param {any} value
 * @returns {value is GlueClass}
 */
function isGlueClass(value) {
  return typeof value === 'function' && typeof value.prototype?.__destroy_into_raw === 'function';
}

/**
 * Guards every class of the bindings module `api` (once), and returns the
 * package's exports that differ from the module's: each class, and `init`
 * and `initSync` returning nothing.
 * @param {Bindings} api
 * @returns {Bindings} only its classes, `default` (init) and `initSync`, which the declarations type as they are here
 */
export function guardBindings(api) {
  bindings = api;
  /** @type {{ [name: string]: unknown }} */
  const exports = {};
  for (const [name, value] of Object.entries(api)) {
    if (isGlueClass(value)) exports[name] = guardClass(value, name, api);
  }
  const unchecked = Object.keys(/** @type {any} */ (api).GUARD_CLASS_ARGUMENTS).filter((what) => !checkedMethods.has(what));
  if (unchecked.length) throw new Error(`guard.js: class arguments of ${unchecked.join(', ')} would go unchecked`);
  /** @param {Parameters<Bindings['initSync']>[0]} module */
  exports.initSync = function initSync(module) {
    api.initSync(module);
  };
  /** @param {Parameters<Bindings['default']>[0]} moduleOrPath */
  exports.default = async function init(moduleOrPath) {
    await api.default(moduleOrPath);
  };
  return /** @type {Bindings} */ (/** @type {unknown} */ (exports));
}
