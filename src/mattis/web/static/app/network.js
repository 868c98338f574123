// The master bot's policy-and-value network in the offline app's worker: Pyodide has no numpy,
// so its arithmetic runs here, on Float32Array weights, and Python calls it (worker.js registers
// it as the module mattis_network; mattis/offline/network.py). The file is the one
// mattis/bots/compact.py describes (written by `mattis app build`); that module's
// CompactNetwork is the same arithmetic in Python, and the tests compare both with numpy.
//
// The input is sparse (a view has a few dozen nonzero numbers out of 1,349): each layer adds one
// row of weights per nonzero number it reads, ReLU keeps the positive sums, and the policy head
// works out only the legal actions' logits.

const MAGIC = 0x4e53544d; // "MTSN", little-endian
const HEADER_WORDS = 4;
const ALIGN = 8;

let halfTable = null;

function halves() {
  // Every float16 bit pattern's value, worked out once (Float16Array is not everywhere yet).
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    let value;
    if (exponent === 0) value = fraction * 2 ** -24;
    else if (exponent === 31) value = fraction ? NaN : Infinity;
    else value = (1 + fraction / 1024) * 2 ** (exponent - 15);
    halfTable[bits] = sign * value;
  }
  return halfTable;
}

export function parseNetwork(buffer) {
  // The network in an ArrayBuffer of the compact format; throws if it is not one.
  const view = new DataView(buffer);
  if (buffer.byteLength < 16 || view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) {
    throw new Error("not a Mattis device network (version 1)");
  }
  const itemsize = view.getUint32(8, true);
  const layers = view.getUint32(12, true);
  const sizes = [];
  for (let index = 0; index < layers + 3; index++) sizes.push(view.getUint32(4 * (HEADER_WORDS + index), true));
  const headerBytes = Math.ceil((4 * (HEADER_WORDS + layers + 3)) / ALIGN) * ALIGN;
  const widths = sizes.slice(1, layers + 1);
  const [inputs, actions, seats] = [sizes[0], sizes[layers + 1], sizes[layers + 2]];
  let offset = headerBytes;
  const take = (count) => {
    let numbers;
    if (itemsize === 4) {
      numbers = new Float32Array(buffer.slice(offset, offset + 4 * count));
    } else {
      const table = halves();
      const bits = new Uint16Array(buffer.slice(offset, offset + 2 * count));
      numbers = new Float32Array(count);
      for (let index = 0; index < count; index++) numbers[index] = table[bits[index]];
    }
    offset += itemsize * count;
    return numbers;
  };
  const trunk = [];
  let previous = inputs;
  for (const width of widths) {
    trunk.push({ width, weights: take(previous * width), biases: take(width) });
    previous = width;
  }
  const policy = { weights: take(actions * previous), biases: take(actions) };
  const value = { weights: take(seats * previous), biases: take(seats) };
  if (offset !== buffer.byteLength) throw new Error("the file's length does not match its shape");
  return { inputs, widths, actions, seats, width: previous, trunk, policy, value };
}

export function evaluate(net, indices, values, legal) {
  // [priors over legal (in its order, summing to 1) ..., each relative seat's risk ...].
  let slots = indices;
  let numbers = values;
  for (const { width, weights, biases } of net.trunk) {
    const sums = Float64Array.from(biases);
    for (let k = 0; k < slots.length; k++) {
      const value = numbers[k];
      const row = slots[k] * width;
      for (let j = 0; j < width; j++) sums[j] += value * weights[row + j];
    }
    slots = [];
    numbers = [];
    for (let j = 0; j < width; j++) {
      if (sums[j] > 0) {
        slots.push(j);
        numbers.push(sums[j]);
      }
    }
  }
  const width = net.width;
  const head = (weights, bias, row) => {
    let total = bias;
    const start = row * width;
    for (let k = 0; k < slots.length; k++) total += numbers[k] * weights[start + slots[k]];
    return total;
  };
  const logits = Array.from(legal, (action) => head(net.policy.weights, net.policy.biases[action], action));
  const top = Math.max(...logits);
  const exps = logits.map((logit) => Math.exp(logit - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  const out = exps.map((e) => e / sum);
  for (let seat = 0; seat < net.seats; seat++) {
    const logit = head(net.value.weights, net.value.biases[seat], seat);
    out.push(logit >= 0 ? 1 / (1 + Math.exp(-logit)) : Math.exp(logit) / (1 + Math.exp(logit)));
  }
  return out;
}

export function evaluateShared(net, data, count, legal) {
  // evaluate() on data = [indices (count)..., values (count)..., legal...], its answer written
  // over data's start (priors, then risks): Python's own array, shared with the worker.
  const result = evaluate(net, data.subarray(0, count), data.subarray(count, 2 * count),
    data.subarray(2 * count, 2 * count + legal));
  data.set(result);
}

export function fromBase64(text) {
  // The network in base64 text (the tests' and the benchmark's network, handed in by a call).
  const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  return parseNetwork(bytes.buffer);
}
