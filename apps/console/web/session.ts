/**
 * The signed-in credentials, kept in this tab's sessionStorage only: gone when the tab closes,
 * never in a URL, a cookie or localStorage.
 */
const API_KEY = "chaingate.console.api-key";
const OPERATOR_TOKEN = "chaingate.console.operator-token";

export const session = {
  apiKey: (): string | null => sessionStorage.getItem(API_KEY),
  operatorToken: (): string | null => sessionStorage.getItem(OPERATOR_TOKEN),
  signIn(apiKey: string): void {
    sessionStorage.setItem(API_KEY, apiKey);
  },
  signInOperator(token: string): void {
    sessionStorage.setItem(OPERATOR_TOKEN, token);
  },
  signOut(): void {
    sessionStorage.removeItem(API_KEY);
    sessionStorage.removeItem(OPERATOR_TOKEN);
  },
};
