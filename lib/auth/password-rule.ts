/** The one password rule (pure, so forms in the browser can show it beside the field). */
export const MIN_PASSWORD_LENGTH = 10;
