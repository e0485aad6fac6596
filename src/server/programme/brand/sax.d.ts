/** The part of sax 1.6 (isaacs/sax-js, untyped) that the SVG sanitiser uses. */
declare module "sax" {
  interface Tag {
    name: string;
    attributes: Record<string, string>;
    isSelfClosing: boolean;
  }
  interface SAXParser {
    onopentag: (tag: Tag) => void;
    onclosetag: (name: string) => void;
    ontext: (text: string) => void;
    oncdata: (text: string) => void;
    onerror: (error: Error) => void;
    write(text: string): SAXParser;
    close(): SAXParser;
  }
  const sax: {
    parser(
      strict: boolean,
      options?: { strictEntities?: boolean; position?: boolean; lowercase?: boolean; trim?: boolean },
    ): SAXParser;
    MAX_BUFFER_LENGTH: number;
  };
  export default sax;
}
