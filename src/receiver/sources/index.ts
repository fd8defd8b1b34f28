// Every source the receiver knows, by the name its route takes: `POST /webhooks/<name>`.
import type { Source } from '../source.js';
import { github } from './github.js';

export const SOURCES: readonly Source[] = [github];
