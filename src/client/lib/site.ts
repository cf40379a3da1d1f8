/** Public identity of the product (DECISIONS "Name and identity"); overridable at build time via VITE_*. */
const env = import.meta.env;

export const PRODUCT_NAME = "Atomize";
export const TITLE_SUFFIX = `${PRODUCT_NAME} Project Manager`;
export const PRODUCT_DESCRIPTION =
  "AI-powered task decomposition that breaks complex projects into actionable work items";

export const SUPPORT_EMAIL: string = env.VITE_SUPPORT_EMAIL || "support@atomize.local";

export const SOCIAL_LINKS: { label: string; href: string }[] = [
  { label: "GitHub", href: env.VITE_SOCIAL_GITHUB_URL || "https://github.com/atomize-app" },
  { label: "X", href: env.VITE_SOCIAL_X_URL || "https://x.com/atomize_app" },
  { label: "LinkedIn", href: env.VITE_SOCIAL_LINKEDIN_URL || "https://www.linkedin.com/company/atomize-app" },
];
