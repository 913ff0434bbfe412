// The REST contract on SQLite (a throwaway file per run).
import { defineRestContract } from './contract.ts';

defineRestContract('sqlite', async () => ({ env: {} }));
