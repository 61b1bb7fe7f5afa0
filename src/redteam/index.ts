export { type Exploit, lastNumber } from './exploit.js';
export { type ExploitRegistry, exploits } from './exploit-registry.js';
