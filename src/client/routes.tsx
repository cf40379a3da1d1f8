import { Suspense } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { ErrorBoundary } from "./components/error-boundary";
import { RequireAdmin, RequireAuth } from "./components/route-guards";
import { PageSpinner } from "./components/spinner";
import { useAuth } from "./lib/auth";
import { lazyPage } from "./lib/lazy-page";

// Every page is its own chunk (lazily loaded, 120 s time-out).
const LandingPage = lazyPage(() => import("./features/landing/landing-page"));
const AboutPage = lazyPage(() => import("./features/about/about-page"));
const ContactPage = lazyPage(() => import("./features/contact/contact-page"));
const PrivacyPage = lazyPage(() => import("./features/legal/privacy-page"));
const TermsPage = lazyPage(() => import("./features/legal/terms-page"));
const BlogListPage = lazyPage(() => import("./features/blog/blog-list-page"));
const BlogPostPage = lazyPage(() => import("./features/blog/blog-post-page"));
const LoginPage = lazyPage(() => import("./features/auth/login-page"));
const RegisterPage = lazyPage(() => import("./features/auth/register-page"));
const SecureOAuthCallbackPage = lazyPage(() => import("./features/auth/secure-oauth-callback-page"));
const OAuthCallbackPage = lazyPage(() => import("./features/auth/oauth-callback-page"));
const VerifyEmailPage = lazyPage(() => import("./features/auth/verify-email-page"));
const NotFoundPage = lazyPage(() => import("./features/not-found/not-found-page"));
const DashboardPage = lazyPage(() => import("./features/dashboard/dashboard-page"));
const CreateTaskPage = lazyPage(() => import("./features/tasks/create-task-page"));
const TaskDetailPage = lazyPage(() => import("./features/tasks/task-detail-page"));
const SettingsPage = lazyPage(() => import("./features/settings/settings-page"));
const BlogAdminPage = lazyPage(() => import("./features/blog-admin/blog-admin-page"));

/** "/" is the landing page for visitors; signed-in users go to their dashboard. */
function HomeRoute() {
  const { status } = useAuth();
  if (status === "authenticated") return <Redirect to="/dashboard" replace />;
  return <LandingPage />;
}

/** The route table. */
export function AppRoutes() {
  const [location] = useLocation();
  return (
    <ErrorBoundary resetKeys={[location]}>
      <Suspense fallback={<PageSpinner label="Loading page..." />}>
        <Switch>
          <Route path="/" component={HomeRoute} />
          <Route path="/landing" component={LandingPage} />
          <Route path="/about" component={AboutPage} />
          <Route path="/contact" component={ContactPage} />
          <Route path="/privacy" component={PrivacyPage} />
          <Route path="/terms" component={TermsPage} />
          <Route path="/blog" component={BlogListPage} />
          <Route path="/blog/:slug" component={BlogPostPage} />
          <Route path="/login" component={LoginPage} />
          <Route path="/register" component={RegisterPage} />
          <Route path="/oauth-callback" component={SecureOAuthCallbackPage} />
          <Route path="/oauth/:provider/callback" component={OAuthCallbackPage} />
          <Route path="/verify-email" component={VerifyEmailPage} />
          <Route path="/404" component={NotFoundPage} />
          <Route path="/dashboard">
            <RequireAuth>
              <DashboardPage />
            </RequireAuth>
          </Route>
          <Route path="/tasks/create">
            <RequireAuth>
              <CreateTaskPage />
            </RequireAuth>
          </Route>
          <Route path="/tasks/:taskId">
            <RequireAuth>
              <TaskDetailPage />
            </RequireAuth>
          </Route>
          <Route path="/settings">
            <RequireAuth>
              <SettingsPage />
            </RequireAuth>
          </Route>
          <Route path="/admin/blog">
            <RequireAdmin>
              <BlogAdminPage />
            </RequireAdmin>
          </Route>
          <Route>
            <Redirect to="/404" replace />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}
