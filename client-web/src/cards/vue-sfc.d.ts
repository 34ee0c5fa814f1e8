// Lets plain `tsc -b` type-check `.ts` files that import single-file components;
// `vue-tsc` resolves the real `.vue` files and checks their props instead.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
