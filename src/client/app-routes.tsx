import { Redirect, Route, Switch } from "wouter";
import { RequireAdmin, RequireAuth } from "./components/route-guards";
import { RuntimeProviders } from "./lib/app-runtime";
import { lazyPage } from "./lib/lazy-page";

// The pages that need the signed-in side of the client (sign-in, registration and the app itself), each
// its own chunk. This module is itself loaded lazily (routes.tsx) with lib/app-runtime.tsx.
const LoginPage = lazyPage(() => import("./features/auth/login-page"));
const RegisterPage = lazyPage(() => import("./features/auth/register-page"));
const SecureOAuthCallbackPage = lazyPage(() => import("./features/auth/secure-oauth-callback-page"));
const OAuthCallbackPage = lazyPage(() => import("./features/auth/oauth-callback-page"));
const VerifyEmailPage = lazyPage(() => import("./features/auth/verify-email-page"));
const DashboardPage = lazyPage(() => import("./features/dashboard/dashboard-page"));
const CreateTaskPage = lazyPage(() => import("./features/tasks/create-task-page"));
const TaskDetailPage = lazyPage(() => import("./features/tasks/task-detail-page"));
const SettingsPage = lazyPage(() => import("./features/settings/settings-page"));
const BlogAdminPage = lazyPage(() => import("./features/blog-admin/blog-admin-page"));
const InvitationPage = lazyPage(() => import("./features/teams/invitation-page"));

/** The pages only a signed-in person sees (a visitor is sent to /login first). */
const SIGNED_IN_ROUTES = [
  { path: "/dashboard", Page: DashboardPage },
  { path: "/tasks/create", Page: CreateTaskPage },
  { path: "/tasks/:taskId", Page: TaskDetailPage },
  { path: "/settings", Page: SettingsPage },
  { path: "/invitations/:token", Page: InvitationPage },
];

/** The signed-in app's route table (the public pages are routed in routes.tsx). */
export default function AppRoutes() {
  return (
    <RuntimeProviders>
      <Switch>
        <Route path="/login" component={LoginPage} />
        <Route path="/register" component={RegisterPage} />
        <Route path="/oauth-callback" component={SecureOAuthCallbackPage} />
        <Route path="/oauth/:provider/callback" component={OAuthCallbackPage} />
        <Route path="/verify-email" component={VerifyEmailPage} />
        {SIGNED_IN_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path}>
            <RequireAuth>
              <Page />
            </RequireAuth>
          </Route>
        ))}
        <Route path="/admin/blog">
          <RequireAdmin>
            <BlogAdminPage />
          </RequireAdmin>
        </Route>
        <Route>
          <Redirect to="/404" replace />
        </Route>
      </Switch>
    </RuntimeProviders>
  );
}
