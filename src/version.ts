// Kept equal to package.json "version" (a test checks it).
export const VERSION = '0.3.0';
