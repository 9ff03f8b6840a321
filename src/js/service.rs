//! The service protocol for JavaScript: `new Service("bril")` and
//! `service.call("Step", {sessionId, action, observationSpace})`, with the
//! protocol's messages as plain objects in their proto3 JSON form.
//!
//! Every RPC goes through [`Service::call_json`]; this file only converts
//! requests and replies (see [`super::json`] for the rules: BigInt in,
//! numbers or decimal strings out) and maps errors to typed JS errors.

use super::error::to_js_error;
use crate::compilers::{self, COMPILERS, DEFAULT_COMPILER};
use crate::error::{Error, Result};
use crate::js::interop::json::{js_to_json, json_to_js};
use crate::js::interop::reflect;
use crate::service::{Service, METHODS};
use serde_json::{Map, Value as Json};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// An in-process compiler service: owns sessions and added benchmarks.
#[wasm_bindgen(js_name = Service)]
pub struct JsService {
    /// Borrowed for each call: a request's getter that calls the service
    /// again gets a ServiceError.
    service: RefCell<Service>,
    compiler: String,
}

/// A request argument as JSON: an omitted one is the empty message.
fn request_json(method: &str, request: &JsValue) -> Result<Json> {
    if request.is_undefined() {
        return Ok(Json::Object(Map::new()));
    }
    js_to_json(request, &format!("{method} request"))
}

fn busy() -> Error {
    Error::service("the service is busy: a getter of a request it is reading cannot call it")
}

impl JsService {
    fn call_named(&self, method: &str, request: &JsValue) -> Result<JsValue> {
        let mut service = self.service.try_borrow_mut().map_err(|_| busy())?;
        let request = request_json(method, request)?;
        Ok(json_to_js(&service.call_json(method, &request)?))
    }

    fn rpc(&self, method: &str, request: &JsValue) -> std::result::Result<JsValue, JsValue> {
        self.call_named(method, request).map_err(to_js_error)
    }
}

#[wasm_bindgen(js_class = Service)]
impl JsService {
    /// A service of the compiler `compiler` (default `"bril"`); an unknown
    /// name is a LookupError listing the known ones.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "string")] compiler: JsValue,
    ) -> std::result::Result<JsService, JsValue> {
        let name = if compiler.is_undefined() || compiler.is_null() {
            DEFAULT_COMPILER.to_string()
        } else {
            reflect::string(&compiler, "compiler")
                .map_err(to_js_error)?
                .ok_or_else(|| to_js_error(Error::type_error("compiler must be a string")))?
        };
        let backend = compilers::backend(&name).map_err(to_js_error)?;
        Ok(JsService { service: RefCell::new(Service::new(backend)), compiler: name })
    }

    /// The compiler names `new Service(name)` accepts.
    pub fn compilers() -> Vec<String> {
        COMPILERS.iter().map(|c| c.to_string()).collect()
    }

    /// The RPC names `call` accepts.
    #[wasm_bindgen(unchecked_return_type = "ServiceMethod[]")]
    pub fn methods() -> Vec<String> {
        METHODS.iter().map(|m| m.to_string()).collect()
    }

    /// The compiler this service was made with.
    #[wasm_bindgen(getter)]
    pub fn compiler(&self) -> String {
        self.compiler.clone()
    }

    /// The number of live sessions.
    #[wasm_bindgen(getter, js_name = sessionCount)]
    pub fn session_count(&self) -> std::result::Result<usize, JsValue> {
        self.service.try_borrow().map(|s| s.session_count()).map_err(|_| to_js_error(busy()))
    }

    /// Answers the RPC `method` (`"GetVersion"`, `"Step"`...) with `request`
    /// shaped like the protocol's request message; the reply is shaped like
    /// its reply message. An unknown method is a LookupError. (Typed per
    /// method by the `Service` interface in `js/typescript/protocol.rs`.)
    #[wasm_bindgen(skip_typescript)]
    pub fn call(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "object")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        let method = reflect::string(&method, "method")
            .map_err(to_js_error)?
            .ok_or_else(|| to_js_error(Error::type_error("method must be a string, e.g. \"GetVersion\"")))?;
        self.rpc(&method, &request)
    }

    /// `call("GetVersion", request)`.
    #[wasm_bindgen(js_name = getVersion, unchecked_return_type = "GetVersionReply")]
    pub fn get_version(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "GetVersionRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("GetVersion", &request)
    }

    /// `call("GetSpaces", request)`.
    #[wasm_bindgen(js_name = getSpaces, unchecked_return_type = "GetSpacesReply")]
    pub fn get_spaces(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "GetSpacesRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("GetSpaces", &request)
    }

    /// `call("StartSession", request)`.
    #[wasm_bindgen(js_name = startSession, unchecked_return_type = "StartSessionReply")]
    pub fn start_session(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "StartSessionRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("StartSession", &request)
    }

    /// `call("ForkSession", request)`.
    #[wasm_bindgen(js_name = forkSession, unchecked_return_type = "ForkSessionReply")]
    pub fn fork_session(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ForkSessionRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("ForkSession", &request)
    }

    /// `call("EndSession", request)`.
    #[wasm_bindgen(js_name = endSession, unchecked_return_type = "EndSessionReply")]
    pub fn end_session(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "EndSessionRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("EndSession", &request)
    }

    /// `call("Step", request)`.
    #[wasm_bindgen(unchecked_return_type = "StepReply")]
    pub fn step(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "StepRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("Step", &request)
    }

    /// `call("AddBenchmark", request)`.
    #[wasm_bindgen(js_name = addBenchmark, unchecked_return_type = "AddBenchmarkReply")]
    pub fn add_benchmark(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "AddBenchmarkRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("AddBenchmark", &request)
    }

    /// `call("SendSessionParameter", request)`.
    #[wasm_bindgen(js_name = sendSessionParameter, unchecked_return_type = "SendSessionParameterReply")]
    pub fn send_session_parameter(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SendSessionParameterRequest")] request: JsValue,
    ) -> std::result::Result<JsValue, JsValue> {
        self.rpc("SendSessionParameter", &request)
    }
}
