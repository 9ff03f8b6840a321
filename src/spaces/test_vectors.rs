//! Sampling test vectors: exact samples of a few spaces for seeds 0 and 42.
//!
//! They are checked by a native unit test and by `tests/wasm/spaces.rs`
//! under wasm32, so any platform difference in sampling (float rounding,
//! `libm`, integer widths) fails a test. Values are compared as their JSON
//! text, which for floats is the shortest round-tripping decimal: equal text
//! means equal bits.

use super::{value_to_json, BoxSpace, DictSpace, Discrete, Scalar, Space, TextSpace, TupleSpace};
use crate::rng::Rng;
use crate::value::DType;

/// The spaces the vectors sample.
fn spaces() -> Vec<(&'static str, Space)> {
    let unit = BoxSpace::uniform("unit", 0.0, 1.0, Some(vec![4]), DType::F32).unwrap();
    let forms = BoxSpace::new(
        "forms",
        vec![-1.0, 2.0, f64::NEG_INFINITY, f64::NEG_INFINITY],
        vec![1.0, f64::INFINITY, 0.5, f64::INFINITY],
        vec![4],
        DType::F64,
    )
    .unwrap();
    let ints =
        BoxSpace::uniform("ints", f64::NEG_INFINITY, f64::INFINITY, Some(vec![2]), DType::I64).unwrap();
    let dict = DictSpace::new(
        "dict",
        vec![
            ("b".into(), BoxSpace::uniform("b", -2.0, 2.0, Some(vec![2]), DType::F32).unwrap().into()),
            ("a".into(), Discrete::new("a", 5, 0).unwrap().into()),
            ("t".into(), TextSpace::new("t", 1, 4, None).unwrap().into()),
        ],
        true,
    )
    .unwrap();
    let tuple = TupleSpace::new(
        "tuple",
        vec![
            Discrete::new("d", 3, -1).unwrap().into(),
            Scalar::new("s", None, None, DType::F64).unwrap().into(),
        ],
    )
    .unwrap();
    vec![
        ("discrete124", Discrete::new("d", 124, 0).unwrap().into()),
        ("box_f32_unit", unit.into()),
        ("box_f64_forms", forms.into()),
        ("box_i64_full", ints.into()),
        ("text16", TextSpace::new("text", 0, 16, None).unwrap().into()),
        ("dict", dict.into()),
        ("tuple", tuple.into()),
    ]
}

/// `(label, JSON text)` for every vector: Gymnasium-style samples after
/// `seed(s)`, the seeds `seed` returned, a functional sample, and a batch.
pub fn compute() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for seed in [0u64, 42] {
        for (label, mut space) in spaces() {
            let seeds = space.seed(seed);
            out.push((format!("{label}/seed{seed}/seeds"), format!("{seeds:?}")));
            let samples: Vec<_> = (0..2).map(|_| value_to_json(&space.sample())).collect();
            out.push((format!("{label}/seed{seed}/samples"), serde_json::to_string(&samples).unwrap()));
            let (_, v) = space.sample_with(Rng::seed_from_u64(seed));
            out.push((
                format!("{label}/seed{seed}/functional"),
                serde_json::to_string(&value_to_json(&v)).unwrap(),
            ));
            if let Ok(batch) = space.sample_batch(3) {
                let text = serde_json::to_string(&value_to_json(&batch.into())).unwrap();
                out.push((format!("{label}/seed{seed}/batch3"), text));
            }
        }
    }
    out
}

/// The expected vectors, recorded on x86-64.
pub const EXPECTED: &[(&str, &str)] = &[
    ("discrete124/seed0/seeds", "[0]"),
    ("discrete124/seed0/samples", "[74,92]"),
    ("discrete124/seed0/functional", "74"),
    ("discrete124/seed0/batch3", "{\"data\":[12,51,90],\"dtype\":\"int64\",\"shape\":[3]}"),
    ("box_f32_unit/seed0/seeds", "[0]"),
    ("box_f32_unit/seed0/samples", "[{\"data\":[0.6012629866600037,0.747774064540863,0.10301999002695084,0.41658908128738403],\"dtype\":\"float32\",\"shape\":[4]},{\"data\":[0.7329967617988586,0.9997484087944031,0.42221152782440186,0.5356548428535461],\"dtype\":\"float32\",\"shape\":[4]}]"),
    ("box_f32_unit/seed0/functional", "{\"data\":[0.6012629866600037,0.747774064540863,0.10301999002695084,0.41658908128738403],\"dtype\":\"float32\",\"shape\":[4]}"),
    ("box_f32_unit/seed0/batch3", "{\"data\":[0.8555171489715576,0.918857991695404,0.11429746448993683,0.06723189353942871,0.10667464882135391,0.6548331379890442,0.4960581362247467,0.29636526107788086,0.7044360041618347,0.188686341047287,0.5497812628746033,0.0577983558177948],\"dtype\":\"float32\",\"shape\":[3,4]}"),
    ("box_f64_forms/seed0/seeds", "[0]"),
    ("box_f64_forms/seed0/samples", "[{\"data\":[0.20252599883580968,2.2906543619346453,-1.7728322377855261,-0.14111270430912182],\"dtype\":\"float64\",\"shape\":[4]},{\"data\":[0.9994968724675728,2.8622488492333624,-0.12426523152558733,0.4876116381838212],\"dtype\":\"float64\",\"shape\":[4]}]"),
    ("box_f64_forms/seed0/functional", "{\"data\":[0.20252599883580968,2.2906543619346453,-1.7728322377855261,-0.14111270430912182],\"dtype\":\"float64\",\"shape\":[4]}"),
    ("box_f64_forms/seed0/batch3", "{\"data\":[-0.7714050711870246,4.699607575372957,-1.737971729583014,-0.9199077408641491,-0.4072695073417758,2.350357810195287,-1.167669238362635,1.022492445877255,-0.37533171878885785,2.7058842420683327,-0.6343911894615222,0.9614371670717025],\"dtype\":\"float64\",\"shape\":[3,4]}"),
    ("box_i64_full/seed0/seeds", "[0]"),
    ("box_i64_full/seed0/samples", "[{\"data\":[1867972634398290612,4570625273314559274],\"dtype\":\"int64\",\"shape\":[2]},{\"data\":[-7322988658008267040,-1538659934228632276],\"dtype\":\"int64\",\"shape\":[2]}]"),
    ("box_i64_full/seed0/functional", "{\"data\":[1867972634398290612,4570625273314559274],\"dtype\":\"int64\",\"shape\":[2]}"),
    ("box_i64_full/seed0/batch3", "{\"data\":[4298031953262947929,9218731504441215690,-1434944111878255464,657716193016351295,6558133910945109809,7726566563627964989],\"dtype\":\"int64\",\"shape\":[3,2]}"),
    ("text16/seed0/seeds", "[0]"),
    ("text16/seed0/samples", "[\"k6PjzQXru7\",\"6\"]"),
    ("text16/seed0/functional", "\"k6PjzQXru7\""),
    ("dict/seed0/seeds", "[0, 5415695640260286, 6735350249106120, 927921571702396]"),
    ("dict/seed0/samples", "[{\"dict\":[[\"a\",0],[\"b\",{\"data\":[0.47491803765296936,1.898695945739746],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"U\"]]},{\"dict\":[[\"a\",2],[\"b\",{\"data\":[1.4111820459365845,-1.6456048488616943],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"3kS\"]]}]"),
    ("dict/seed0/functional", "{\"dict\":[[\"a\",3],[\"b\",{\"data\":[0.9910963773727417,-1.587920069694519],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"jz\"]]}"),
    ("tuple/seed0/seeds", "[0, 5415695640260286, 6735350249106120]"),
    ("tuple/seed0/samples", "[[-1,0.9675047332458762],[0,0.4791252996557634]]"),
    ("tuple/seed0/functional", "[0,0.6082094966374778]"),
    ("discrete124/seed42/seeds", "[42]"),
    ("discrete124/seed42/samples", "[10,46]"),
    ("discrete124/seed42/functional", "10"),
    ("discrete124/seed42/batch3", "{\"data\":[84,114,122],\"dtype\":\"int64\",\"shape\":[3]}"),
    ("box_f32_unit/seed42/seeds", "[42]"),
    ("box_f32_unit/seed42/samples", "[{\"data\":[0.08386296778917313,0.37898024916648865,0.6800433993339539,0.9246929287910461],\"dtype\":\"float32\",\"shape\":[4]},{\"data\":[0.9918038845062256,0.7697394490242004,0.7192586064338684,0.8500084280967712],\"dtype\":\"float32\",\"shape\":[4]}]"),
    ("box_f32_unit/seed42/functional", "{\"data\":[0.08386296778917313,0.37898024916648865,0.6800433993339539,0.9246929287910461],\"dtype\":\"float32\",\"shape\":[4]}"),
    ("box_f32_unit/seed42/batch3", "{\"data\":[0.7613743543624878,0.5833492875099182,0.6824528574943542,0.2906777560710907,0.801024317741394,0.3214116394519806,0.7111499309539795,0.8777672052383423,0.6167615652084351,0.8513900637626648,0.7075404524803162,0.7078292965888977],\"dtype\":\"float32\",\"shape\":[3,4]}"),
    ("box_f64_forms/seed42/seeds", "[42]"),
    ("box_f64_forms/seed42/samples", "[{\"data\":[-0.8322740578802357,2.9702711843269114,0.11440135689760933,0.39518627748085805],\"dtype\":\"float64\",\"shape\":[4]},{\"data\":[0.5394789208684849,2.329534350479203,0.3374910044657924,-0.6394511082571309],\"dtype\":\"float64\",\"shape\":[4]}]"),
    ("box_f64_forms/seed42/functional", "{\"data\":[-0.8322740578802357,2.9702711843269114,0.11440135689760933,0.39518627748085805],\"dtype\":\"float64\",\"shape\":[4]}"),
    ("box_f64_forms/seed42/batch3", "{\"data\":[0.36490573922503855,3.235539973262515,0.27813600161967383,-0.36414060826176087,0.7555344592426994,2.4832728085635916,0.3391151270987006,-0.21783385812114553,-0.8142798749654816,3.720242050464825,-0.3296628054096349,-0.3942230548508469],\"dtype\":\"float64\",\"shape\":[3,4]}"),
    ("box_i64_full/seed42/seeds", "[42]"),
    ("box_i64_full/seed42/samples", "[{\"data\":[-7676373272452217066,-2232420343890232706],\"dtype\":\"int64\",\"shape\":[2]},{\"data\":[3321214725393783201,7834202072327348385],\"dtype\":\"int64\",\"shape\":[2]}]"),
    ("box_i64_full/seed42/functional", "{\"data\":[-7676373272452217066,-2232420343890232706],\"dtype\":\"int64\",\"shape\":[2]}"),
    ("box_i64_full/seed42/batch3", "{\"data\":[9072180941210541668,4975814793210974776,4044606872079424946,6456516188463038599,4821506313837569150,1537523385446153277],\"dtype\":\"int64\",\"shape\":[3,2]}"),
    ("text16/seed42/seeds", "[42]"),
    ("text16/seed42/samples", "[\"N\",\"vzliqlagInJ\"]"),
    ("text16/seed42/functional", "\"N\""),
    ("dict/seed42/seeds", "[42, 755370490430936, 3413550631330343, 6125286505004179]"),
    ("dict/seed42/samples", "[{\"dict\":[[\"a\",2],[\"b\",{\"data\":[-0.7584778070449829,-1.219558835029602],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"a8oU\"]]},{\"dict\":[[\"a\",1],[\"b\",{\"data\":[-1.4170145988464355,-1.9460352659225464],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"I\"]]}]"),
    ("dict/seed42/functional", "{\"dict\":[[\"a\",0],[\"b\",{\"data\":[-0.4840790033340454,0.7201736569404602],\"dtype\":\"float32\",\"shape\":[2]}],[\"t\",\"zliq\"]]}"),
    ("tuple/seed42/seeds", "[42, 755370490430936, 3413550631330343]"),
    ("tuple/seed42/samples", "[[0,0.5171623098559791],[-1,1.9555470074770027]]"),
    ("tuple/seed42/functional", "[-1,-0.5927809993229354]"),
];

/// Every vector that differs from [`EXPECTED`], described; empty when all match.
pub fn mismatches() -> Vec<String> {
    let got = compute();
    let mut bad = Vec::new();
    if got.len() != EXPECTED.len() {
        bad.push(format!("{} vectors computed, {} expected", got.len(), EXPECTED.len()));
    }
    for ((label, text), (want_label, want)) in got.iter().zip(EXPECTED) {
        if label != want_label || text != want {
            bad.push(format!("{label}: got {text}, expected {want_label}: {want}"));
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    #[test]
    fn vectors_match_natively() {
        let bad = super::mismatches();
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    #[ignore = "prints the vectors to record in EXPECTED"]
    fn print_vectors() {
        for (label, text) in super::compute() {
            println!("    ({label:?}, {text:?}),");
        }
    }
}
