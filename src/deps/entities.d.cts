/** Text with every HTML character reference decoded as a browser reads text (legacy mode). */
export declare function decodeHtml(text: string): string;
