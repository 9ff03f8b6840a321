use super::*;
use crate::rng::Rng;
use crate::value::Value;
use wasm_bindgen_test::wasm_bindgen_test;

fn array(shape: Vec<usize>, data: ArrayData) -> Value {
    Value::Array(Array::new(shape, data).unwrap())
}

fn bounded(
    shape: Vec<usize>,
    dtype: DType,
    min: impl Into<Bound>,
    max: impl Into<Bound>,
) -> BoundedArraySpec {
    BoundedArraySpec::new(shape, dtype, min, max).unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn bounds_are_scalar_or_per_element_and_validated() {
    let s = bounded(vec![3], DType::F64, -1.0, vec![1.0, 2.0, 3.0]);
    assert!(s.minimum().is_scalar());
    assert_eq!(s.maximum_array().unwrap().data(), &ArrayData::F64(vec![1.0, 2.0, 3.0]));
    assert_eq!(s.minimum_array().unwrap().data(), &ArrayData::F64(vec![-1.0; 3]));

    let wrong_len = BoundedArraySpec::new(vec![3], DType::F64, vec![0.0, 1.0], 5.0).unwrap_err();
    assert_eq!(wrong_len.name(), "ValueError");
    assert!(wrong_len.message().starts_with("minimum:"), "{wrong_len}");

    let crossed = BoundedArraySpec::new(vec![2], DType::I32, vec![0i64, 5], 4i64).unwrap_err();
    assert!(crossed.message().contains("greater than maximum"), "{crossed}");

    let out_of_range = BoundedArraySpec::new(vec![], DType::U8, 0i64, 256i64).unwrap_err();
    assert!(out_of_range.message().contains("uint8"), "{out_of_range}");
    assert!(BoundedArraySpec::new(vec![], DType::I32, 0.5, 3.0).is_err());
    assert!(BoundedArraySpec::new(vec![], DType::F32, f64::NAN, 3.0).is_err());

    // Infinities become the dtype's extreme finite values, as in tf_agents.
    let inf = bounded(vec![], DType::F32, f64::NEG_INFINITY, f64::INFINITY);
    assert_eq!(inf.minimum(), &Bounds::Float(vec![f32::MIN as f64]));
    // Integer bounds of 64-bit dtypes stay exact.
    let big = bounded(vec![], DType::U64, 0u64, u64::MAX);
    assert_eq!(big.maximum(), &Bounds::Int(vec![u64::MAX as i128]));
    assert_eq!(
        BoundedArraySpec::from_spec(&ArraySpec::new(vec![], DType::I8)).minimum(),
        &Bounds::Int(vec![-128])
    );
    // An open side takes the dtype's limit.
    let half_open = bounded(vec![2], DType::I16, Bound::DTypeLimit, 5i64);
    assert_eq!(half_open.minimum(), &Bounds::Int(vec![i16::MIN as i128]));
}

#[wasm_bindgen_test(unsupported = test)]
fn check_value_names_the_field_and_the_difference() {
    let spec = Spec::dict(vec![
        ("global", ArraySpec::new(vec![2], DType::F64).into()),
        ("n", bounded(vec![], DType::I32, 1i64, 4i64).into()),
    ])
    .unwrap();
    let good = Value::Dict(vec![
        ("n".into(), array(vec![], ArrayData::I32(vec![4]))),
        ("global".into(), array(vec![2], ArrayData::F64(vec![0.0, 1.0]))),
    ]);
    check_value(&spec, &good).unwrap();

    let with = |key: &str, v: Value| {
        let Value::Dict(mut items) = good.clone() else { unreachable!() };
        items.iter_mut().find(|(k, _)| k == key).unwrap().1 = v;
        Value::Dict(items)
    };
    let e = check_value(&spec, &with("global", array(vec![2], ArrayData::F32(vec![0.0; 2])))).unwrap_err();
    assert_eq!(e.name(), "TypeError");
    assert_eq!(e.message(), "value.global: expected dtype float64, got float32");

    let e = check_value(&spec, &with("global", array(vec![3], ArrayData::F64(vec![0.0; 3])))).unwrap_err();
    assert_eq!(e.name(), "ValueError");
    assert_eq!(e.message(), "value.global: expected shape [2], got [3]");

    let e = check_value(&spec, &with("n", array(vec![], ArrayData::I32(vec![5])))).unwrap_err();
    assert_eq!(e.message(), "value.n: element [] = 5 is outside [1, 4]");

    let e = check_value(&spec, &with("n", Value::Str("4".into()))).unwrap_err();
    assert_eq!(e.name(), "TypeError");
    assert!(e.message().contains("got a string"), "{e}");

    let Value::Dict(mut items) = good.clone() else { unreachable!() };
    items.pop();
    let e = check_value(&spec, &Value::Dict(items.clone())).unwrap_err();
    assert!(e.message().contains("missing key \"global\""), "{e}");
    items.push(("extra".into(), Value::Int(1)));
    let e = check_value(&spec, &Value::Dict(items)).unwrap_err();
    assert!(e.message().contains("unexpected key \"extra\""), "{e}");

    let list = Spec::List(vec![ArraySpec::new(vec![], DType::I64).into()]);
    check_value(&list, &Value::List(vec![Value::Int(3)])).unwrap();
    let e = check_value(&list, &Value::List(vec![])).unwrap_err();
    assert!(e.message().contains("expected a list of 1 items, got 0"), "{e}");
    let e = check_value(&list, &Value::List(vec![Value::Float(3.0)])).unwrap_err();
    assert_eq!(e.message(), "value[0]: expected dtype int64, got float64");
}

#[wasm_bindgen_test(unsupported = test)]
fn batched_checks_expect_the_batch_dimension_and_repeat_per_element_bounds() {
    let spec: Spec = bounded(vec![2], DType::I64, vec![0i64, 10], vec![1i64, 11]).into();
    let ok = array(vec![3, 2], ArrayData::I64(vec![0, 10, 1, 11, 0, 11]));
    check_value_batched(&spec, &ok, &[3], "action").unwrap();
    let e = check_value_batched(&spec, &ok, &[2], "action").unwrap_err();
    assert_eq!(e.message(), "action: expected shape [2, 2] (batch dims [2] + spec shape [2]), got [3, 2]");
    let bad = array(vec![3, 2], ArrayData::I64(vec![0, 10, 1, 11, 1, 1]));
    let e = check_value_batched(&spec, &bad, &[3], "action").unwrap_err();
    assert_eq!(e.message(), "action: element [2, 1] = 1 is outside [[0, 10], [1, 11]]");
    // A bounded float spec rejects NaN.
    let unit: Spec = bounded(vec![], DType::F64, 0.0, 1.0).into();
    assert!(check_value(&unit, &Value::Float(f64::NAN)).is_err());
    assert!(check_value(&unit, &Value::Float(1.0)).is_ok());
}

#[wasm_bindgen_test(unsupported = test)]
fn samples_conform_to_their_specs_for_every_dtype() {
    let mut rng = Rng::seed_from_u64(3);
    for dtype in DType::ALL {
        let unbounded: Spec = ArraySpec::new(vec![2, 3], dtype).into();
        let bounds = BoundedArraySpec::from_spec(&ArraySpec::new(vec![], dtype));
        let narrow: Spec = match bounds.minimum() {
            Bounds::Int(_) if dtype == DType::Bool => bounded(vec![4], dtype, 0i64, 1i64).into(),
            Bounds::Int(_) => bounded(vec![4], dtype, vec![0i64, 1, 2, 3], 3i64).into(),
            Bounds::Float(_) => bounded(vec![4], dtype, vec![-1.0, 0.0, 0.5, 2.0], 2.0).into(),
        };
        for spec in [unbounded, narrow] {
            for _ in 0..20 {
                let v = sample_spec(&spec, &mut rng).unwrap();
                check_value(&spec, &v).unwrap_or_else(|e| panic!("{dtype}: {e}"));
                let b = sample_spec_batched(&spec, &mut rng, &[5]).unwrap();
                check_value_batched(&spec, &b, &[5], "sample").unwrap_or_else(|e| panic!("{dtype}: {e}"));
            }
        }
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn integer_samples_reach_both_inclusive_ends_and_are_seeded() {
    let spec: Spec = bounded(vec![], DType::I32, -1i64, 1i64).into();
    let mut rng = Rng::seed_from_u64(8);
    let mut seen = [false; 3];
    for _ in 0..100 {
        let v = sample_spec(&spec, &mut rng).unwrap();
        seen[(v.as_array().unwrap().data().get_i128(0).unwrap() + 1) as usize] = true;
    }
    assert_eq!(seen, [true; 3]);
    let nest = Spec::List(vec![spec.clone(), ArraySpec::new(vec![3], DType::F32).into()]);
    let a = sample_spec(&nest, &mut Rng::seed_from_u64(1)).unwrap();
    let b = sample_spec(&nest, &mut Rng::seed_from_u64(1)).unwrap();
    let c = sample_spec(&nest, &mut Rng::seed_from_u64(2)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[wasm_bindgen_test(unsupported = test)]
fn outer_dims_and_time_step_spec() {
    let per_arm = ArraySpec::new(vec![3], DType::F64).with_name("per_arm").with_outer_dims(&[5]);
    assert_eq!(per_arm.shape(), [5, 3]);
    assert_eq!(per_arm.name(), Some("per_arm"));
    let spec = time_step_spec(per_arm.clone().into(), None);
    assert_eq!(spec.step_type.array_spec().unwrap().name(), Some("step_type"));
    assert_eq!(spec.reward.array_spec().unwrap().dtype(), DType::F32);
    assert_eq!(spec.observation, Spec::Array(per_arm));
    assert!(Spec::dict(vec![("a", spec.reward.clone()), ("a", spec.reward.clone())]).is_err());
}
