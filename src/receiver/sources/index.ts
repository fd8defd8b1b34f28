// Every source the receiver knows, by the name its route takes: `POST /webhooks/<name>`.
import type { Source } from '../source.js';
import { argocd } from './argocd.js';
import { flux } from './flux.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';

export const SOURCES: readonly Source[] = [github, gitlab, argocd, flux] as readonly Source[];
