export declare const LAYERS: { name: string; glob: string }[];
export declare const FEATURES: Record<string, string[]>;
export declare const SERVER_CODE: string[];
export declare const BROWSER_CODE: string[];
export declare const layering: object;
export declare const UI_BASE: string;
export declare const SHELL: string;
