//! The service protocol's messages in their proto3 JSON form (see
//! `service::messages`, `service::event`, `service::space_json`): what
//! `Service.call` and `RemoteService.call` take and return, per method.
//!
//! Requests are what a caller writes, so they take more than replies give:
//! int64 fields as numbers, BigInts or decimal strings, bytes as base64 or
//! a `Uint8Array`, and every field optional (proto3 reads a missing one as
//! its default). Replies hold numbers, or decimal strings beyond 2^53.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_PROTOCOL: &'static str = r#"
// ---- proto3's JSON scalars -------------------------------------------------------

/** An int64 or uint64 field of a request: a number, a BigInt, or a decimal string. */
export type Int64JsonInput = number | bigint | string;
/** An int64 or uint64 field of a reply: a number, or a decimal string beyond ±(2^53 − 1). */
export type Int64Json = number | string;
/** A double or float field of a reply: a number, or the name of a non-finite one. */
export type DoubleJson = number | "NaN" | "Infinity" | "-Infinity";
/** A double or float field of a request: also a number in a string. */
export type DoubleJsonInput = DoubleJson | `${number}`;
/** A bytes field of a request: base64 text, or the bytes themselves. */
export type BytesJsonInput = string | Uint8Array | ArrayBuffer;

/** Exactly one of a oneof's fields set, the others absent. */
export type OneOf<Fields> = {
  [K in keyof Fields]: { [F in K]: Fields[F] } & { [F in Exclude<keyof Fields, K>]?: never };
}[keyof Fields];
/** None of a oneof's fields set. */
export type NoneOf<Fields> = { [F in keyof Fields]?: never };

// ---- Event: a value --------------------------------------------------------------

export interface TensorJson<T> {
  shape: Int64Json[];
  value: T[];
}
export interface TensorJsonInput<T> {
  /** Default: one dimension, as long as `value`. */
  shape?: Int64JsonInput[];
  value?: T[] | TypedArray;
}

/** The fields of a reply's Event, one of which is set (none for no value). */
export interface EventFields {
  booleanValue: boolean;
  int64Value: Int64Json;
  doubleValue: DoubleJson;
  stringValue: string;
  /** base64 */
  bytesValue: string;
  booleanTensor: TensorJson<boolean>;
  /** `value`: the bytes as base64. */
  byteTensor: { shape: Int64Json[]; value: string };
  int64Tensor: TensorJson<Int64Json>;
  floatTensor: TensorJson<DoubleJson>;
  doubleTensor: TensorJson<DoubleJson>;
  eventList: { event: Event[] };
  /** A protobuf map: key order is not kept. */
  eventDict: { event: { [key: string]: Event } };
  /** Values with no Event form of their own (other dtypes, graphs), in compgym's value JSON. */
  anyValue: { "@type": "type.googleapis.com/compgym.Value"; value: JsonValue };
}
/** The protocol's Event in a reply: an observation. */
export type Event = OneOf<EventFields> | NoneOf<EventFields>;

/** The fields of a request's Event, one of which is set (none for no value). */
export interface EventInputFields {
  booleanValue: boolean;
  int64Value: Int64JsonInput;
  int32Value: number;
  doubleValue: DoubleJsonInput;
  floatValue: DoubleJsonInput;
  stringValue: string;
  bytesValue: BytesJsonInput;
  booleanTensor: TensorJsonInput<boolean>;
  byteTensor: { shape?: Int64JsonInput[]; value?: BytesJsonInput };
  int64Tensor: TensorJsonInput<Int64JsonInput>;
  floatTensor: TensorJsonInput<DoubleJsonInput>;
  doubleTensor: TensorJsonInput<DoubleJsonInput>;
  /** One-dimensional only: read as a list of strings. */
  stringTensor: { shape?: Int64JsonInput[]; value?: string[] };
  eventList: { event?: EventInput[] };
  eventDict: { event?: { [key: string]: EventInput } };
  anyValue:
    | { "@type": "type.googleapis.com/compgym.Value"; value: JsonValue }
    | { "@type": "type.googleapis.com/compiler_gym.Opaque"; format?: string; data?: BytesJsonInput };
}
/** The protocol's Event in a request: an action. A reply's Event is one too. */
export type EventInput = OneOf<EventInputFields> | NoneOf<EventInputFields>;

// ---- Space: what actions and observations live in ---------------------------------

export interface RangeJson<T> {
  min?: T;
  max?: T;
}
export interface LengthRangeJson {
  min: Int64Json;
  /** Absent: unbounded. */
  max?: Int64Json;
}
export interface BoxJson<T> {
  low: TensorJson<T>;
  high: TensorJson<T>;
}
export interface CommandlineSpaceJson {
  "@type": "type.googleapis.com/compiler_gym.CommandlineSpace";
  /** The flags. */
  name: string[];
  /** When some flag has a description. */
  description?: string[];
  /** When some flag's name is not its flag. */
  flagName?: string[];
}

/** The fields of the protocol's Space, one of which is set. */
export interface SpaceMessageFields {
  discrete: { n: Int64Json };
  namedDiscrete: { name: string[] };
  booleanValue: RangeJson<boolean>;
  int64Value: RangeJson<Int64Json>;
  floatValue: RangeJson<DoubleJson>;
  doubleValue: RangeJson<DoubleJson>;
  /** Strings whose length lies in the range. */
  stringValue: { lengthRange: LengthRangeJson };
  bytesSequence: { lengthRange: LengthRangeJson };
  booleanSequence: { lengthRange: LengthRangeJson; scalarRange?: RangeJson<boolean> };
  byteSequence: { lengthRange: LengthRangeJson; scalarRange?: RangeJson<Int64Json> };
  int64Sequence: { lengthRange: LengthRangeJson; scalarRange?: RangeJson<Int64Json> };
  floatSequence: { lengthRange: LengthRangeJson; scalarRange?: RangeJson<DoubleJson> };
  doubleSequence: { lengthRange: LengthRangeJson; scalarRange?: RangeJson<DoubleJson> };
  booleanBox: BoxJson<boolean>;
  /** Bounds as base64 bytes. */
  byteBox: { low: { shape: Int64Json[]; value: string }; high: { shape: Int64Json[]; value: string } };
  int64Box: BoxJson<Int64Json>;
  floatBox: BoxJson<DoubleJson>;
  doubleBox: BoxJson<DoubleJson>;
  spaceList: { space: SpaceMessage[] };
  spaceDict: { space: { [key: string]: SpaceMessage } };
  spaceSequence: { lengthRange: LengthRangeJson; space: SpaceMessage };
  /** A list of strings. */
  stringSequence: { lengthRange: LengthRangeJson };
  /** Commandline spaces, opaque bytes of a format, and compgym's spaces with no protocol form (by description). */
  anyValue:
    | CommandlineSpaceJson
    | { "@type": "type.googleapis.com/compiler_gym.Opaque"; format: string }
    | { "@type": "type.googleapis.com/compgym.Space"; value: SpaceDescription };
}
/** The protocol's Space (it has no name: the action or observation space holding it does). */
export type SpaceMessage = OneOf<SpaceMessageFields>;

export interface ActionSpaceMessage {
  name: string;
  space: SpaceMessage;
}
export interface ObservationSpaceMessage {
  name: string;
  space: SpaceMessage;
  deterministic: boolean;
  platformDependent: boolean;
  /** What stands in for an observation the service failed to compute. */
  defaultObservation: Event;
}

// ---- benchmarks ---------------------------------------------------------------

export interface CommandInput {
  argument?: string[];
  env?: { [name: string]: string };
  timeoutSeconds?: Int64JsonInput;
  infile?: string[];
  outfile?: string[];
}
/** How to build and run a benchmark (kept for the protocol: the in-process service runs no commands). */
export interface BenchmarkDynamicConfigInput {
  buildCmd?: CommandInput;
  runCmd?: CommandInput;
  preRunCmd?: CommandInput[];
  postRunCmd?: CommandInput[];
}
/** A program, named by a URI: its contents, a URI to read it from, or neither (a benchmark the service knows). */
export interface BenchmarkInput {
  uri?: string;
  program?: OneOf<{ contents: BytesJsonInput; uri: string }> | NoneOf<{ contents: BytesJsonInput; uri: string }>;
  dynamicConfig?: BenchmarkDynamicConfigInput;
}

// ---- the messages of each method -----------------------------------------------------

/** A message with no fields. */
export type EmptyMessage = Record<string, never>;

export type GetVersionRequest = EmptyMessage;
export interface GetVersionReply {
  serviceVersion: string;
  compilerVersion: string;
}

export type GetSpacesRequest = EmptyMessage;
export interface GetSpacesReply {
  actionSpaceList: ActionSpaceMessage[];
  observationSpaceList: ObservationSpaceMessage[];
}

export interface StartSessionRequest {
  /** A benchmark, or its URI alone. */
  benchmark?: string | BenchmarkInput;
  /** The index of the action space in GetSpaces' list (default 0). */
  actionSpace?: Int64JsonInput;
  /** Indices of the observation spaces to compute at the start. */
  observationSpace?: Int64JsonInput[];
}
export interface StartSessionReply {
  sessionId: Int64Json;
  newActionSpace?: ActionSpaceMessage;
  /** One per requested observation space, in order. */
  observation: Event[];
}

export interface ForkSessionRequest {
  sessionId?: Int64JsonInput;
}
export interface ForkSessionReply {
  sessionId: Int64Json;
}

export interface EndSessionRequest {
  sessionId?: Int64JsonInput;
}
export interface EndSessionReply {
  remainingSessions: Int64Json;
}

export interface StepRequest {
  sessionId?: Int64JsonInput;
  /** The actions, applied in order. */
  action?: EventInput[];
  /** Indices of the observation spaces to compute after the actions. */
  observationSpace?: Int64JsonInput[];
}
export interface StepReply {
  endOfSession: boolean;
  actionHadNoEffect: boolean;
  newActionSpace?: ActionSpaceMessage;
  observation: Event[];
}

export interface AddBenchmarkRequest {
  benchmark?: (string | BenchmarkInput)[];
}
export type AddBenchmarkReply = EmptyMessage;

export interface SessionParameter {
  key?: string;
  value?: string;
}
export interface SendSessionParameterRequest {
  sessionId?: Int64JsonInput;
  parameter?: SessionParameter[];
}
export interface SendSessionParameterReply {
  /** One per parameter, in order. */
  reply: string[];
}

/** Every RPC of the protocol, with its request and reply messages. */
export interface ServiceMethods {
  GetVersion: { request: GetVersionRequest; reply: GetVersionReply };
  GetSpaces: { request: GetSpacesRequest; reply: GetSpacesReply };
  StartSession: { request: StartSessionRequest; reply: StartSessionReply };
  ForkSession: { request: ForkSessionRequest; reply: ForkSessionReply };
  EndSession: { request: EndSessionRequest; reply: EndSessionReply };
  Step: { request: StepRequest; reply: StepReply };
  AddBenchmark: { request: AddBenchmarkRequest; reply: AddBenchmarkReply };
  SendSessionParameter: { request: SendSessionParameterRequest; reply: SendSessionParameterReply };
}
/** The name of an RPC (`Service.methods()` lists them). */
export type ServiceMethod = keyof ServiceMethods;
export type ServiceRequest<M extends ServiceMethod> = ServiceMethods[M]["request"];
export type ServiceReply<M extends ServiceMethod> = ServiceMethods[M]["reply"];

export interface Service {
  /**
   * Answers the RPC `method` with `request`, shaped like the protocol's
   * request message (omitted: the empty message); the reply is shaped like
   * its reply message. An unknown method is a LookupError.
   */
  call<M extends ServiceMethod>(method: M, request?: ServiceRequest<M>): ServiceReply<M>;
}
"#;
