declare module "png-js" {
  export default class PNG {
    constructor(data: Uint8Array);
    width: number;
    height: number;
    hasAlphaChannel: boolean;
    /** RGBA pixels, four bytes each. */
    decode(fn: (pixels: Uint8Array) => void): void;
  }
}
