export { compactCommand, composerCommand, type ComposerCommand } from './composer-command.js';
