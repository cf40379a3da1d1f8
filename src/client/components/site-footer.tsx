import { Link } from "wouter";
import { usePublicConfig } from "../lib/public-config";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME } from "../lib/site";

const PRODUCT_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/login", label: "Get Started" },
  { to: "/blog", label: "Blog" },
  { to: "/dashboard", label: "Dashboard" },
];

const LEGAL_LINKS = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
];

/**
 * Product and support links, social links, the description and a copyright line. The support
 * address and social links are the installation's (`system.publicConfig`), with build-time defaults while
 * they load.
 */
export function SiteFooter() {
  const { supportEmail, socialLinks } = usePublicConfig();
  // UTC: the server and the browser render the same year (hydration needs the same text).
  const year = new Date().getUTCFullYear();
  return (
    <footer className="mt-auto border-t border-base-300 bg-base-200 text-base-content">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <p className="text-lg font-bold text-primary">{PRODUCT_NAME}</p>
          <p className="mt-2 max-w-md text-sm text-base-content/80">{PRODUCT_DESCRIPTION}.</p>
          <ul aria-label="Social links" className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {socialLinks.map((s) => (
              <li key={s.label}>
                <a className="link link-hover" href={s.href} target="_blank" rel="noopener noreferrer">
                  {s.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product" className="footer-title">
            Product
          </h2>
          <ul className="space-y-2 text-sm">
            {PRODUCT_LINKS.map((l) => (
              <li key={l.label}>
                <Link href={l.to} className="link link-hover">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="footer-title">
            Support
          </h2>
          <ul className="space-y-2 text-sm">
            <li>
              <Link href="/contact" className="link link-hover">
                Contact Us
              </Link>
            </li>
            <li>
              <a href={`mailto:${supportEmail}`} className="link link-hover break-all">
                {supportEmail}
              </a>
            </li>
            {LEGAL_LINKS.map((l) => (
              <li key={l.label}>
                <Link href={l.to} className="link link-hover">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-base-300">
        <p className="mx-auto max-w-7xl px-4 py-4 text-center text-sm text-base-content/70">
          © {year} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
