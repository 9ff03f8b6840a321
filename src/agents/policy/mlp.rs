//! A small multilayer perceptron with tanh hidden layers and a linear
//! output, its gradients by hand, and Adam.
//!
//! All arithmetic is f64 in a fixed order, with `libm`'s pure-Rust `tanh`
//! and `sqrt` from IEEE hardware, so the same seed trains bit for bit the
//! same network natively and in wasm.

use crate::error::{Error, Result};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// One dense layer: `outputs = weights · inputs + bias`, weights row-major
/// (`outputs` rows of `inputs`). Saved with f32 precision (see [`f32_values`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    #[serde(with = "f32_values")]
    pub weights: Vec<f64>,
    #[serde(with = "f32_values")]
    pub bias: Vec<f64>,
}

/// Parameters in JSON: written as the shortest f32 that rounds to them,
/// read back rounded to f32. Half the text of f64, plenty of precision for
/// a policy, and a network read back plays exactly as the one written.
pub mod f32_values {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
        let rounded: Vec<f32> = values.iter().map(|&v| v as f32).collect();
        rounded.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        let values = Vec::<f64>::deserialize(d)?;
        Ok(values.into_iter().map(|v| f64::from(v as f32)).collect())
    }
}

impl Dense {
    /// Glorot-uniform weights scaled by `gain`, zero bias.
    fn new(inputs: usize, outputs: usize, gain: f64, rng: &mut Rng) -> Dense {
        let limit = gain * (6.0 / (inputs + outputs) as f64).sqrt();
        let weights = (0..inputs * outputs).map(|_| rng.uniform(-limit, limit)).collect();
        Dense { inputs, outputs, weights, bias: vec![0.0; outputs] }
    }

    fn forward(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        for (row, b) in self.weights.chunks_exact(self.inputs).zip(&self.bias) {
            let mut sum = *b;
            for (w, v) in row.iter().zip(x) {
                sum += w * v;
            }
            out.push(sum);
        }
    }

    fn parameters(&self) -> usize {
        self.weights.len() + self.bias.len()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    pub layers: Vec<Dense>,
}

/// The activations of one forward pass, kept for the backward pass:
/// `values[0]` is the input, `values[k]` the output of layer `k - 1` (after
/// tanh for hidden layers).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    values: Vec<Vec<f64>>,
}

impl Trace {
    pub fn output(&self) -> &[f64] {
        self.values.last().map_or(&[], Vec::as_slice)
    }
}

impl Mlp {
    /// Sizes `[inputs, hidden..., outputs]`; the last layer's weights are
    /// scaled by `output_gain` (small: a near-uniform policy at first).
    pub fn new(sizes: &[usize], output_gain: f64, rng: &mut Rng) -> Mlp {
        let last = sizes.len().saturating_sub(2);
        let layers = sizes
            .windows(2)
            .enumerate()
            .map(|(i, w)| Dense::new(w[0], w[1], if i == last { output_gain } else { 1.0 }, rng))
            .collect();
        Mlp { layers }
    }

    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, |l| l.inputs)
    }

    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, |l| l.outputs)
    }

    pub fn parameters(&self) -> usize {
        self.layers.iter().map(Dense::parameters).sum()
    }

    /// The same network with every parameter rounded to f32, as saved.
    pub fn rounded(&self) -> Mlp {
        let mut net = self.clone();
        net.parameters_mut().for_each(|p| *p = f64::from(*p as f32));
        net
    }

    /// Checks that the layers chain and every array has its size.
    pub fn check(&self) -> Result<()> {
        if self.layers.is_empty() {
            return Err(Error::value("a network needs at least one layer"));
        }
        for (i, l) in self.layers.iter().enumerate() {
            if l.weights.len() != l.inputs * l.outputs || l.bias.len() != l.outputs {
                return Err(Error::value(format!("layer {i}: weights or bias of the wrong size")));
            }
            if l.weights.iter().chain(&l.bias).any(|w| !w.is_finite()) {
                return Err(Error::value(format!("layer {i}: a weight is not a finite number")));
            }
            if i > 0 && self.layers[i - 1].outputs != l.inputs {
                return Err(Error::value(format!(
                    "layer {i} takes {} inputs, not {}",
                    l.inputs,
                    self.layers[i - 1].outputs
                )));
            }
        }
        Ok(())
    }

    /// The output for `x`, keeping the activations in `trace`.
    pub fn forward(&self, x: &[f64], trace: &mut Trace) {
        trace.values.resize_with(self.layers.len() + 1, Vec::new);
        trace.values[0].clear();
        trace.values[0].extend_from_slice(x);
        let hidden = self.layers.len().saturating_sub(1);
        for (k, layer) in self.layers.iter().enumerate() {
            let (before, after) = trace.values.split_at_mut(k + 1);
            layer.forward(&before[k], &mut after[0]);
            if k < hidden {
                after[0].iter_mut().for_each(|v| *v = libm::tanh(*v));
            }
        }
    }

    /// Adds to `grads` the gradient of a loss whose gradient with respect to
    /// the output of `trace` is `output_grad`.
    pub fn backward(&self, trace: &Trace, output_grad: &[f64], grads: &mut Gradients) {
        let mut delta = output_grad.to_vec();
        let mut offset = grads.values.len();
        for (k, layer) in self.layers.iter().enumerate().rev() {
            offset -= layer.parameters();
            let input = &trace.values[k];
            let g = &mut grads.values[offset..offset + layer.parameters()];
            let (gw, gb) = g.split_at_mut(layer.weights.len());
            for (o, d) in delta.iter().enumerate() {
                gb[o] += d;
                for (gw, x) in gw[o * layer.inputs..(o + 1) * layer.inputs].iter_mut().zip(input) {
                    *gw += d * x;
                }
            }
            if k == 0 {
                break;
            }
            // Through the weights, then through the tanh of the layer below.
            let mut below = vec![0.0; layer.inputs];
            for (row, d) in layer.weights.chunks_exact(layer.inputs).zip(&delta) {
                for (b, w) in below.iter_mut().zip(row) {
                    *b += w * d;
                }
            }
            for (b, h) in below.iter_mut().zip(input) {
                *b *= 1.0 - h * h;
            }
            delta = below;
        }
    }

    fn parameters_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.layers.iter_mut().flat_map(|l| l.weights.iter_mut().chain(l.bias.iter_mut()))
    }
}

/// Gradients of every parameter, in the order of layers (weights, then bias).
#[derive(Clone, Debug)]
pub struct Gradients {
    values: Vec<f64>,
}

impl Gradients {
    pub fn zeros(network: &Mlp) -> Gradients {
        Gradients { values: vec![0.0; network.parameters()] }
    }

    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|g| *g = 0.0);
    }

    pub fn scale(&mut self, factor: f64) {
        self.values.iter_mut().for_each(|g| *g *= factor);
    }

    pub fn norm(&self) -> f64 {
        self.values.iter().map(|g| g * g).sum::<f64>().sqrt()
    }
}

/// Adam (Kingma and Ba), with its state for every parameter.
#[derive(Clone, Debug)]
pub struct Adam {
    pub learning_rate: f64,
    /// Decoupled weight decay (AdamW): each step also shrinks every
    /// parameter by `learning_rate * weight_decay` of itself.
    pub weight_decay: f64,
    beta1: f64,
    beta2: f64,
    /// `beta1^t` and `beta2^t`, by repeated multiplication (exact, portable).
    beta1_t: f64,
    beta2_t: f64,
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    pub fn new(network: &Mlp, learning_rate: f64) -> Adam {
        let n = network.parameters();
        Adam {
            learning_rate,
            weight_decay: 0.0,
            beta1: 0.9,
            beta2: 0.999,
            beta1_t: 1.0,
            beta2_t: 1.0,
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// With decoupled weight decay `weight_decay`.
    pub fn with_weight_decay(self, weight_decay: f64) -> Adam {
        Adam { weight_decay, ..self }
    }

    /// One descent step along `grads`.
    pub fn step(&mut self, network: &mut Mlp, grads: &Gradients) {
        self.beta1_t *= self.beta1;
        self.beta2_t *= self.beta2;
        let (c1, c2) = (1.0 - self.beta1_t, 1.0 - self.beta2_t);
        let params = network.parameters_mut();
        for (((p, g), m), v) in params.zip(&grads.values).zip(&mut self.m).zip(&mut self.v) {
            *m = self.beta1 * *m + (1.0 - self.beta1) * g;
            *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
            *p -= self.learning_rate * ((*m / c1) / ((*v / c2).sqrt() + 1e-8) + self.weight_decay * *p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn loss(net: &Mlp, x: &[f64], target: &[f64]) -> f64 {
        let mut t = Trace::default();
        net.forward(x, &mut t);
        t.output().iter().zip(target).map(|(o, y)| 0.5 * (o - y) * (o - y)).sum()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn gradients_match_finite_differences() {
        let mut rng = Rng::seed_from_u64(3);
        let net = Mlp::new(&[4, 5, 3, 2], 1.0, &mut rng);
        let (x, target) = ([0.3, -0.7, 1.1, 0.05], [0.2, -0.4]);
        let mut trace = Trace::default();
        net.forward(&x, &mut trace);
        let out_grad: Vec<f64> = trace.output().iter().zip(&target).map(|(o, y)| o - y).collect();
        let mut grads = Gradients::zeros(&net);
        net.backward(&trace, &out_grad, &mut grads);
        let mut i = 0;
        for (l, layer) in net.layers.iter().enumerate() {
            for (j, is_bias) in
                (0..layer.weights.len()).map(|j| (j, false)).chain((0..layer.outputs).map(|j| (j, true)))
            {
                let bump = |d: f64| {
                    let mut n = net.clone();
                    let p = if is_bias { &mut n.layers[l].bias[j] } else { &mut n.layers[l].weights[j] };
                    *p += d;
                    loss(&n, &x, &target)
                };
                let numeric = (bump(1e-6) - bump(-1e-6)) / 2e-6;
                assert!(
                    (numeric - grads.values[i]).abs() < 1e-6,
                    "parameter {i}: {numeric} vs {}",
                    grads.values[i]
                );
                i += 1;
            }
        }
        assert_eq!(i, net.parameters());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn adam_fits_a_small_function_the_same_way_every_time() {
        let fit = || {
            let mut rng = Rng::seed_from_u64(11);
            let mut net = Mlp::new(&[2, 8, 1], 1.0, &mut rng);
            let mut adam = Adam::new(&net, 0.02);
            let mut grads = Gradients::zeros(&net);
            let mut trace = Trace::default();
            let data = [([0.0, 0.0], 0.0), ([0.0, 1.0], 1.0), ([1.0, 0.0], 1.0), ([1.0, 1.0], 0.0)];
            for _ in 0..2000 {
                grads.clear();
                for (x, y) in &data {
                    net.forward(x, &mut trace);
                    let o = trace.output()[0];
                    net.backward(&trace, &[o - y], &mut grads);
                }
                adam.step(&mut net, &grads);
            }
            let total: f64 = data.iter().map(|(x, y)| loss(&net, x, &[*y])).sum();
            (total, net)
        };
        let (total, net) = fit();
        assert!(total < 0.01, "XOR is learnt: loss {total}");
        assert_eq!(fit().1, net, "bit for bit the same network");
    }

    /// Every bit of every parameter, folded into one number.
    fn fingerprint(net: &Mlp) -> u64 {
        net.layers
            .iter()
            .flat_map(|l| l.weights.iter().chain(&l.bias))
            .fold(0u64, |h, w| h.rotate_left(7) ^ w.to_bits())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn training_gives_the_same_bits_natively_and_in_wasm() {
        // The same numbers are asserted in both builds (the wasm tests run
        // this too): tanh, exp and log come from libm, sqrt is IEEE.
        let mut rng = Rng::seed_from_u64(2024);
        let mut net = Mlp::new(&[3, 6, 6, 2], 0.5, &mut rng);
        let mut adam = Adam::new(&net, 0.01);
        let mut grads = Gradients::zeros(&net);
        let mut trace = Trace::default();
        for step in 0..50 {
            grads.clear();
            let x = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), step as f64 / 50.0];
            net.forward(&x, &mut trace);
            let out = trace.output().to_vec();
            let mut p = out.clone();
            crate::agents::policy::softmax(&mut p, &[true, true]);
            let target = libm::log1p(x[0].abs()) - libm::exp(-x[1]);
            net.backward(&trace, &[p[0] - 1.0, out[1] - target], &mut grads);
            adam.step(&mut net, &grads);
        }
        assert_eq!(fingerprint(&net), FINGERPRINT, "{:#x}", fingerprint(&net));
    }

    const FINGERPRINT: u64 = 0x1651_0e1f_c1c7_a6f4;

    #[wasm_bindgen_test(unsupported = test)]
    fn check_rejects_networks_that_do_not_chain() {
        let mut rng = Rng::seed_from_u64(1);
        let mut net = Mlp::new(&[3, 4, 2], 1.0, &mut rng);
        assert!(net.check().is_ok());
        net.layers[1].inputs = 5;
        assert_eq!(net.check().unwrap_err().name(), "ValueError");
        let mut net = Mlp::new(&[3, 4, 2], 1.0, &mut rng);
        net.layers[0].bias.pop();
        assert!(net.check().is_err());
        assert!(Mlp { layers: vec![] }.check().is_err());
    }
}
