// Keeps objects that are freed, or that the wasm module never made, out of
// the wasm code.
//
// Each class of the bindings holds a pointer into the wasm memory in
// `__wbg_ptr`; `free()` sets it to 0. Handed a 0, the wasm code throws from
// inside its own frames, and an exception that unwinds through wasm frames
// skips their epilogues: the shadow stack leaks a frame each time until the
// instance dies. So here, once an object is freed, reading its pointer
// throws a ValueError before any wasm code runs: as `this` of its methods
// and as the argument of another's (`space.equals(freed)`), directly or
// through a Proxy. An object built from a class's prototype without the
// module (`Object.create(Space.prototype)`) throws a TypeError the same way.
// `free()` twice is a no-op; `free()` through a Proxy is a TypeError (the glue
// would leave the object in its FinalizationRegistry, to be freed again when
// collected). None of this costs a live object anything: its
// own `__wbg_ptr` is a plain property, read as before.
//
// `free()` inside a call on the same object (from a callback of
// `env.step`, say) lets go of the object at once and of its memory when
// that call returns; the glue reports that as an error, here it is what
// `free()` asked for.
//
// The glue throws plain Errors of its own in two more places, made typed
// here by wrapping every method, getter and setter (a wrapper costs nothing
// measurable): a method that takes another object of the bindings
// (`space.equals(other)`, `Space.batched(space, ...)`) checks its class
// first, which is a TypeError like every other argument error; and a call
// that needs an object mutably while a call on it is still running (a
// Proxy trap or callback inside `space.contains(value)` that calls
// `space.sample()`) is refused, which is a ServiceError like every other
// re-entry. Both are refused before the wasm code does anything.

/** An Error with a compgym error name. */
function typedError(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The bindings module, for its `errorNames()`. */
let bindings;

/** The names compgym gives its errors: asked of the module on first need, since
 * in a browser it is guarded before `init()` has loaded the wasm. */
let errorNames;
function compgymNames() {
  if (!errorNames) {
    try {
      errorNames = new Set(bindings.errorNames());
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

/** `error`, thrown by member `what`, with a compgym name if the glue threw it. */
function retyped(error, what, checksClass) {
  // compgym's own errors pass, and so does a trap of the wasm code (a crash stays visible).
  if (!(error instanceof Error) || error instanceof WebAssembly.RuntimeError || compgymNames().has(error.name)) {
    return error;
  }
  if (error.message.startsWith(BUSY)) {
    return typedError('ServiceError', `${what}: the object is busy: a callback or getter run by a call on it cannot use it again`);
  }
  return checksClass ? typedError('TypeError', `${what}: ${error.message}`) : error;
}

/** `f` with the glue's own errors made typed; its `length` and `name` kept. */
function withTypedErrors(f, what) {
  const checksClass = String(f).includes('_assertClass(');
  const wrapped = function (...args) {
    try {
      return f.apply(this, args);
    } catch (error) {
      throw retyped(error, what, checksClass);
    }
  };
  Object.defineProperty(wrapped, 'length', { value: f.length });
  Object.defineProperty(wrapped, 'name', { value: f.name });
  return wrapped;
}

/** Wraps the methods and accessors of `holder` (a class or its prototype). */
function typeGlueErrors(holder, prefix) {
  for (const key of Object.getOwnPropertyNames(holder)) {
    // The glue's own helpers (`__wrap`, `__destroy_into_raw`) and `free` (guarded below) stay.
    if (key === 'constructor' || key === 'free' || key.startsWith('__')) continue;
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    if (!descriptor.configurable) continue;
    const what = `${prefix}${key}`;
    if (typeof descriptor.value === 'function') {
      Object.defineProperty(holder, key, { ...descriptor, value: withTypedErrors(descriptor.value, what) });
    } else if (descriptor.get || descriptor.set) {
      Object.defineProperty(holder, key, {
        ...descriptor,
        get: descriptor.get && withTypedErrors(descriptor.get, what),
        set: descriptor.set && withTypedErrors(descriptor.set, what),
      });
    }
  }
}

/** Guards every class of the bindings module `api` (once). */
export function guardClasses(api) {
  bindings = api;
  const made = new WeakSet();
  const freed = new WeakSet();
  for (const klass of Object.values(api)) {
    const proto = typeof klass === 'function' ? klass.prototype : undefined;
    if (!proto || typeof proto.__destroy_into_raw !== 'function' || proto.__destroy_into_raw.guarded) continue;
    const name = klass.name;
    typeGlueErrors(klass, `${name}.`);
    typeGlueErrors(proto, `${name}.prototype.`);

    // Instances get their pointer as an own property (the module assigns it,
    // this setter defines it); only objects without one reach the getter.
    Object.defineProperty(proto, '__wbg_ptr', {
      configurable: true,
      get() {
        throw typedError('TypeError', `this is not a ${name} made by compgym`);
      },
      set(ptr) {
        Object.defineProperty(this, '__wbg_ptr', { value: ptr, writable: true, enumerable: true, configurable: true });
        made.add(this);
      },
    });

    const destroy = proto.__destroy_into_raw;
    const guardedDestroy = function () {
      const ptr = destroy.call(this);
      freed.add(this);
      Object.defineProperty(this, '__wbg_ptr', {
        enumerable: true,
        configurable: true,
        get() {
          throw typedError('ValueError', `this ${name} was freed: free() was called on it`);
        },
      });
      return ptr;
    };
    guardedDestroy.guarded = true;
    proto.__destroy_into_raw = guardedDestroy;

    const free = proto.free;
    const guardedFree = function () {
      if (freed.has(this)) return;
      // Through a Proxy, the glue would miss the object in its FinalizationRegistry,
      // which would then free the memory a second time.
      if (!made.has(this)) throw typedError('TypeError', `free() must be called on a ${name} itself, not on a Proxy or copy of one`);
      try {
        free.call(this);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith(STILL_BORROWED))) throw error;
      }
    };
    proto.free = guardedFree;
    if (typeof Symbol.dispose === 'symbol' && proto[Symbol.dispose] === free) proto[Symbol.dispose] = guardedFree;
  }
}
