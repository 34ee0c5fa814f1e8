/** The web client's entry point: connects to the page's own host and mounts the app. */
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { createWebRegistry, rendererRegistryKey } from './cards/index.js';
import { createHostClient, takeToken } from './live/host-client.js';
import { useHostStore } from './stores/host-store.js';
import { useSessionListStore } from './stores/session-list-store.js';
import './styles/app.css';

const app = createApp(App);
app.use(createPinia());
app.provide(rendererRegistryKey, createWebRegistry());
const baseUrl = new URL('.', window.location.href).href.replace(/\/$/, '');
useHostStore().connect(
  createHostClient(baseUrl, takeToken(window.location, localStorage, history)),
);
useSessionListStore().start();
app.mount('#app');
