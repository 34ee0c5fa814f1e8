import { catalogBench } from './catalog-bench.js';
console.log(JSON.stringify(await catalogBench(process.argv.includes('--quick')), null, 1));
